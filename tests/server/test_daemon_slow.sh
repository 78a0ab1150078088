#!/bin/sh
# Real 2KiB PoRep proofs through cuzk-daemon (slow suite): preload, single and batch -c 4 -j 2 with every
# proof verified offline, cancel of a queued job, an await that times out, eviction, status and metrics
# afterwards, the independent Python client's proof (verified with `cuzk porep verify`), then the load
# test: 32 jobs from 4 clients, mixed priorities, malformed requests interleaved, every proof verified.
# Usage: test_daemon_slow.sh <cuzk-daemon> <cuzk-bench> <cuzk> <params dir>
set -u
daemon="$1"
bench="$2"
cuzk="$3"
params="$4"
msg_on="2"
. "$(dirname "$0")/../cli_expect.sh"
. "$(dirname "$0")/daemon_util.sh"

expect 0 "development parameters" "$cuzk" params generate --kind porep --sector-size 2KiB --out "$params"
expect 0 "a sector to prove" "$bench" gen-vanilla porep -o "$dir/c1w.json" --sector-num 11
# the same C1 bare, for `cuzk porep verify`
/usr/bin/python3 -c "import json,base64,sys; w=json.load(open(sys.argv[1])); open(sys.argv[2],'wb').write(base64.b64decode(w['Phase1Out']))" \
  "$dir/c1w.json" "$dir/c1.json"

start_daemon "$dir/d.log" --status-listen 127.0.0.1:0 --set "srs.param_cache=$params" \
  --set memory.total_budget=6GiB || { echo "FAIL: the daemon did not start"; cat "$dir/d.log"; exit 1; }
a="127.0.0.1:$port"
expect 0 "preload" "$bench" -a "$a" preload -c porep-2k
out_has "preload" "porep-2k loaded in"
expect 0 "preload again" "$bench" -a "$a" preload -c porep-2k
out_has "preload again" "already loaded"
expect 0 "single" "$bench" -a "$a" single --c1 "$dir/c1w.json" --verify-params "$params"
out_has "single" "offline verification: valid"
expect 0 "batch -c 4 -j 2" "$bench" -a "$a" batch --c1 "$dir/c1w.json" -c 4 -j 2 --verify-params "$params"
out_has "batch" "completed: 4, failed: 0"

# A runs, B is prepared behind it, C waits in the queue and is cancelled there; a short await on A
# times out, a long one gets it; a result is delivered once
for j in a b c; do
  expect 0 "submit $j" "$bench" -a "$a" submit --c1 "$dir/c1w.json" --request-id job-$j
done
expect 0 "cancel C" "$bench" -a "$a" cancel --job job-c
out_has "cancel C" "was queued"
expect 1 "await C" "$bench" -a "$a" await --job job-c
out_has "await C" "status: CANCELLED"
expect 1 "await A with 100 ms" "$bench" -a "$a" await --job job-a --timeout-ms 100
out_has "await A with 100 ms" "status: TIMEOUT"
expect 0 "await A" "$bench" -a "$a" await --job job-a
out_has "await A" "status: COMPLETED"
expect 0 "await B" "$bench" -a "$a" await --job job-b
expect 1 "await A again: delivered once" "$bench" -a "$a" await --job job-a
expect 0 "evict" "$bench" -a "$a" evict -c porep-2k
out_has "evict" "porep-2k evicted"
expect 0 "metrics" "$bench" -a "$a" metrics
out_has "metrics" 'cuzk_proofs_completed{proof_kind="porep_c2"} 7'
out_has "metrics" 'cuzk_prove_seconds_count{proof_kind="porep_c2"} 7'
expect 0 "HTTP /status" http_get "$status_port" /status
out_has "/status" '"total_completed":7'

# the independent client: a proof through Prove, checked by the offline verifier
expect 0 "Python Prove" $py prove "$a" "$dir/c1w.json" "$dir/py.proof"
expect 0 "the Python client's proof verifies" "$cuzk" porep verify --c1 "$dir/c1.json" --params "$params" \
  --proof "$dir/py.proof" --miner-id 1000 --sector-num 11

# load: 32 jobs, 4 clients, mixed priorities, malformed requests between them
mkdir "$dir/load"
expect 0 "load test" $py load "$a" "$dir/c1w.json" "$dir/d.log" "$dir/load"
cat "$dir/out" | tail -3
n=0
for p in "$dir"/load/*.proof; do
  "$cuzk" porep verify --c1 "$dir/c1.json" --params "$params" --proof "$p" --miner-id 1000 --sector-num 11 \
    >/dev/null 2>&1 || {
    echo "FAIL: $p does not verify"; fails=$((fails + 1)); }
  n=$((n + 1))
done
[ "$n" -eq 32 ] || { echo "FAIL: $n proofs from the load test, expected 32"; fails=$((fails + 1)); }
stop_daemon "$dir/d.log" || { echo "FAIL: SIGTERM"; fails=$((fails + 1)); }

[ "$fails" -eq 0 ] && echo "test_daemon_slow: all checks passed"
exit "$fails"
