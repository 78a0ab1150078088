#!/bin/sh
# Job identity and the queue through cuzk-daemon, with the independent Python grpcio client
# (daemon_jobs.py): a job shared by its submitter and another client's Prove survives the Prove's
# departure, a job only Prove submitted does not, an id whose job was cancelled or failed starts a new
# one, the queue cap answers RESOURCE_EXHAUSTED, huge AwaitProof timeouts wait. 2KiB Window PoSt jobs
# (development parameters made in the parameter directory when missing) are held in the queue by a
# memory budget that the preloaded Winning PoSt parameters fill, until they are evicted.
# Usage: test_daemon_jobs.sh <cuzk-daemon> <cuzk-bench> <cuzk> <params dir>
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
rnd=0101010101010101010101010101010101010101010101010101010101010101
expect 0 "a Window vanilla proof" "$bench" gen-vanilla window --sectors 1 -o "$dir/w0.vproof" --randomness "$rnd"

# 115 MB: the Window parameters (11.5 MB) and a partition (74 MB) fit in the 7/8 not kept for queued
# requests; with the Winning parameters (47 MB) besides they do not
start_daemon "$dir/d.log" --set "srs.param_cache=$params" --set memory.total_budget=115MB \
  --set memory.eviction_min_idle=1h --set scheduler.max_queued=3 --set synthesis.threads=2 ||
  { echo "FAIL: the daemon did not start"; cat "$dir/d.log"; exit 1; }
expect 0 "the Python client: job identity and the queue" /usr/bin/python3 "$(dirname "$0")/daemon_jobs.py" \
  "127.0.0.1:$port" "$dir/d.log" "$dir/w0.vproof" "$rnd"
stop_daemon "$dir/d.log" || { echo "FAIL: SIGTERM"; cat "$dir/d.log"; fails=$((fails + 1)); }

[ "$fails" -eq 0 ] && echo "test_daemon_jobs: all checks passed"
exit "$fails"
