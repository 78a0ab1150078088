#!/bin/sh
# cuzk-daemon and the cuzk-bench client without proving (fast): configuration errors refused at start,
# keys that have no effect warned about (file and --set) and printed as comments, non-loopback addresses
# refused, status / metrics over gRPC and HTTP, an independent Python grpcio client's checks, preload /
# evict answers, jobs that fail with their reason (malformed C1, missing parameters, a truncated PoSt
# vanilla proof) and PoSt requests refused at submission while the daemon keeps serving, unknown jobs,
# a unix socket in a directory that does not exist yet and a stale socket file, and a clean exit on
# SIGTERM.
# Usage: test_daemon.sh <cuzk-daemon> <cuzk-bench>
set -u
daemon="$1"
bench="$2"
msg_on="2"   # a failed proof (exit 1) says why in its result block: checked with out_has
. "$(dirname "$0")/../cli_expect.sh"
. "$(dirname "$0")/daemon_util.sh"

# refused at start: exit 2 with the reason
printf '[daemon]\nlisten = 9820\n' >"$dir/bad.toml"
expect 2 "a listen address of the wrong type" "$daemon" -c "$dir/bad.toml"
out_has "wrong type" "daemon.listen"
expect 2 "a missing config file" "$daemon" -c "$dir/none.toml"
expect 2 "a non-loopback address" "$daemon" -l 0.0.0.0:0
out_has "non-loopback" "allow_remote"
expect 2 "an unknown key" "$daemon" --set memory.nonsense=1
expect 0 "--print-config" "$daemon" --print-config --set memory.total_budget=2GiB
out_has "--print-config" "total_budget"
expect 0 "--set of a key that has no effect" "$daemon" --print-config --set scheduler.max_batch_size=4
out_has "--set inert key" "scheduler.max_batch_size is read but has no effect: cross-sector batching"
out_has "inert key in the printout" "^# scheduler.max_batch_size = 4  # read but has no effect"
printf '[pipeline]\nslot_size = 2\n' >"$dir/inert.toml"
expect 0 "a file with a key that has no effect" "$daemon" -c "$dir/inert.toml" --print-config
out_has "file inert key" "inert.toml: line 2: pipeline.slot_size is read but has no effect"

# a daemon with no parameters at all
mkdir "$dir/params"
start_daemon "$dir/d1.log" --status-listen 127.0.0.1:0 --set "srs.param_cache=$dir/params" \
  --set memory.total_budget=2GiB || { echo "FAIL: the daemon did not start"; cat "$dir/d1.log"; exit 1; }
a="127.0.0.1:$port"
expect 0 "status" "$bench" -a "$a" status
out_has "status" "porep_c2: 0 pending"
expect 0 "metrics" "$bench" -a "http://$a" metrics
out_has "metrics" "cuzk_proofs_completed_total 0"
out_has "metrics" "cuzk_queue_wait_seconds_bucket"
expect 0 "HTTP /status" http_get "$status_port" /status
out_has "HTTP /status" '"pipelines":\[\]'
expect 0 "HTTP /metrics" http_get "$status_port" /metrics
out_has "HTTP /metrics" "cuzk_uptime_seconds"
expect 1 "HTTP 404" http_get "$status_port" /nothing
expect 1 "preload without parameters" "$bench" -a "$a" preload -c porep-2k
out_has "preload" "missing parameters"
expect 1 "preload of an unknown circuit" "$bench" -a "$a" preload -c porep-3t
out_has "unknown circuit" "unknown circuit id"
expect 0 "evict what is not loaded" "$bench" -a "$a" evict -c porep-32g
out_has "evict" "was not loaded"

# an independent client (Python grpcio): status, metrics, malformed and unsupported requests
expect 0 "the Python client" $py fast "$a"

# jobs that fail: the reason comes back, the daemon goes on
printf '{"registered_proof":"StackedDrg2KiBV1_1"' >"$dir/bad-c1.json"
expect 1 "a malformed C1" "$bench" -a "$a" single --c1 "$dir/bad-c1.json"
out_has "malformed C1" "status: FAILED"
out_has "malformed C1" "c1 json"
expect 0 "gen-vanilla porep" "$bench" gen-vanilla porep -o "$dir/c1w.json" --sector-num 3
expect 1 "a C1 without its parameters" "$bench" -a "$a" single --c1 "$dir/c1w.json"
out_has "no parameters" "missing parameters"
expect 1 "a C1 of another sector number" "$bench" -a "$a" single --c1 "$dir/c1w.json" --sector-num 4
out_has "another sector" "SectorNum"
# PoSt: refused at submission (INVALID_ARGUMENT, the field named) or failed when started, with the reason
rnd=0101010101010101010101010101010101010101010101010101010101010101
expect 0 "gen-vanilla winning" "$bench" gen-vanilla winning -o "$dir/win.vproof" --randomness "$rnd"
expect 1 "a Winning PoSt without its parameters" "$bench" -a "$a" single --kind winning --vanilla "$dir/win.vproof" \
  --randomness "$rnd" --sector-size 2KiB
out_has "Winning without parameters" "status: FAILED"
out_has "Winning without parameters" "missing parameters"
expect 1 "a Window proof number for a Winning job" "$bench" -a "$a" single --kind winning \
  --vanilla "$dir/win.vproof" --randomness "$rnd" --registered-proof StackedDrgWindow2KiBV1_1
out_has "wrong kind" "gRPC status 3"
out_has "wrong kind" "is a Window PoSt proof"
head -c 100 "$dir/win.vproof" >"$dir/short.vproof"
expect 1 "a truncated vanilla proof" "$bench" -a "$a" single --kind winning --vanilla "$dir/short.vproof" \
  --randomness "$rnd" --sector-size 2KiB
out_has "truncated vanilla" "status: FAILED"
out_has "truncated vanilla" "vanilla_proofs\[0\]"
expect 1 "await an unknown job" "$bench" -a "$a" await --job nothing-like-it
out_has "unknown job" "no such job"
expect 1 "cancel an unknown job" "$bench" -a "$a" cancel --job nothing-like-it
expect 0 "status after the failures" "$bench" -a "$a" status
out_has "failure count" "failed: 5"
stop_daemon "$dir/d1.log" || { echo "FAIL: SIGTERM: the daemon did not exit cleanly"; cat "$dir/d1.log"; fails=$((fails + 1)); }
grep -q "cuzk-daemon: stopped" "$dir/d1.log" || { echo "FAIL: no 'stopped' line"; fails=$((fails + 1)); }
grep -q "^TIMELINE,[0-9]*,FAILED," "$dir/d1.log" || { echo "FAIL: no TIMELINE lines"; fails=$((fails + 1)); }

# a unix socket whose directory does not exist yet; the socket file goes with the daemon
sock="$dir/run/sub/cuzk.sock"
start_daemon "$dir/d2.log" -l "unix://$sock" || { echo "FAIL: unix socket"; cat "$dir/d2.log"; exit 1; }
expect 0 "status over a unix socket" "$bench" -a "unix://$sock" status
stop_daemon "$dir/d2.log" || { echo "FAIL: unix daemon exit"; fails=$((fails + 1)); }
[ -e "$sock" ] && { echo "FAIL: the socket file was left behind"; fails=$((fails + 1)); }
# a stale socket file (nobody listening) is replaced
/usr/bin/python3 -c "import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])" "$sock"
start_daemon "$dir/d3.log" -l "unix://$sock" || { echo "FAIL: stale socket not replaced"; cat "$dir/d3.log"; exit 1; }
expect 0 "status after replacing a stale socket" "$bench" -a "unix://$sock" status
stop_daemon "$dir/d3.log"

[ "$fails" -eq 0 ] && echo "test_daemon: all checks passed"
exit "$fails"
