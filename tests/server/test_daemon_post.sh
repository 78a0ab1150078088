#!/bin/sh
# Winning and Window PoSt through cuzk-daemon and cuzk-bench on 2KiB sectors (development parameters made
# in the parameter directory when missing, vanilla proofs of sectors sealed by gen-vanilla): preload,
# single Winning and single Window (two sectors) with each proof verified offline, a batch, the independent
# Python grpcio client's Winning proof checked by `cuzk post verify` (and refused under other randomness),
# the counters by kind, eviction.
# Usage: test_daemon_post.sh <cuzk-daemon> <cuzk-bench> <cuzk> <params dir>
set -u
daemon="$1"
bench="$2"
cuzk="$3"
params="$4"
msg_on="2"
. "$(dirname "$0")/../cli_expect.sh"
. "$(dirname "$0")/daemon_util.sh"

expect 0 "Winning 2KiB parameters" "$cuzk" params generate --kind winning-post --sector-size 2KiB --out "$params"
expect 0 "Window 2KiB parameters" "$cuzk" params generate --kind window-post --sector-size 2KiB --out "$params"
# random randomness below 2^254: a canonical field element
rnd=$(/usr/bin/python3 -c "import os; b=bytearray(os.urandom(32)); b[31]&=0x3f; print(b.hex())")
other=$(/usr/bin/python3 -c "import os; b=bytearray(os.urandom(32)); b[31]&=0x3f; print(b.hex())")
expect 0 "a Winning vanilla proof" "$bench" gen-vanilla winning -o "$dir/win.vproof" --randomness "$rnd"
expect 0 "Window vanilla proofs" "$bench" gen-vanilla window --sectors 2 -o "$dir/w0.vproof" -o "$dir/w1.vproof" \
  --randomness "$rnd"

start_daemon "$dir/d.log" --set "srs.param_cache=$params" --set memory.total_budget=4GiB \
  --set synthesis.threads=2 || { echo "FAIL: the daemon did not start"; cat "$dir/d.log"; exit 1; }
a="127.0.0.1:$port"
expect 0 "preload winning-2k" "$bench" -a "$a" preload -c winning-2k
out_has "preload" "winning-2k loaded in"
expect 0 "single Winning" "$bench" -a "$a" single --kind winning --vanilla "$dir/win.vproof" --randomness "$rnd" \
  --sector-size 2KiB --verify-params "$params"
out_has "single Winning" "proof: 192 bytes"
out_has "single Winning" "offline verification: valid"
expect 0 "single Window, two sectors" "$bench" -a "$a" single --kind window --vanilla "$dir/w0.vproof" \
  --vanilla "$dir/w1.vproof" --randomness "$rnd" --registered-proof StackedDrgWindow2KiBV1_1 --verify-params "$params"
out_has "single Window" "offline verification: valid"
expect 0 "batch Winning -c 2 -j 2" "$bench" -a "$a" batch --kind winning --vanilla "$dir/win.vproof" \
  --randomness "$rnd" --sector-size 2KiB -c 2 -j 2 --verify-params "$params"
out_has "batch" "type: winning-post"
out_has "batch" "completed: 2, failed: 0"
# randomness the vanilla proof was not made for: the job fails when it starts, with the reason
expect 1 "Winning with other randomness" "$bench" -a "$a" single --kind winning --vanilla "$dir/win.vproof" \
  --randomness "$other" --sector-size 2KiB
out_has "other randomness" "status: FAILED"
out_has "other randomness" "challenge"

# the independent client; its proof checked by the offline verifier, and refused for other randomness
expect 0 "Python Prove, Winning" $py post "$a" winning 0 "$rnd" "$dir/py.proof" "$dir/win.vproof"
expect 0 "the Python client's proof verifies" "$cuzk" post verify --kind winning --sector-size 2KiB \
  --vanilla "$dir/win.vproof" --randomness "$rnd" --miner-id 1000 --params "$params" --proof "$dir/py.proof"
expect 1 "not under other randomness" "$cuzk" post verify --kind winning --sector-size 2KiB \
  --vanilla "$dir/win.vproof" --randomness "$other" --miner-id 1000 --params "$params" --proof "$dir/py.proof"

expect 0 "metrics" "$bench" -a "$a" metrics
out_has "metrics" 'cuzk_proofs_completed{proof_kind="winning_post"} 4'
out_has "metrics" 'cuzk_proofs_completed{proof_kind="window_post"} 1'
out_has "metrics" 'cuzk_proofs_failed{proof_kind="winning_post"} 1'
expect 0 "status" "$bench" -a "$a" status
out_has "status" "winning-2k"
out_has "status" "wpost-2k"
expect 0 "evict winning-2k" "$bench" -a "$a" evict -c winning-2k
out_has "evict" "winning-2k evicted"
stop_daemon "$dir/d.log" || { echo "FAIL: SIGTERM"; fails=$((fails + 1)); }
grep -q "^TIMELINE,[0-9]*,COMPLETED,python-post," "$dir/d.log" ||
  { echo "FAIL: no TIMELINE of the Python job"; fails=$((fails + 1)); }

[ "$fails" -eq 0 ] && echo "test_daemon_post: all checks passed"
exit "$fails"
