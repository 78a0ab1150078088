#!/bin/sh
# The daemon's two targets on a 2KiB PoRep, with development parameters:
#  1. overhead: `cuzk-bench single` against a daemon with the parameters preloaded, next to
#     `cuzk porep prove` offline (whole commands, interleaved pairs, medians);
#  2. throughput: `cuzk-bench batch -c N -j J` against N sequential offline proofs, with the daemon's
#     peak RSS (VmHWM) next to its configured memory budget.
#   usage: scripts/bench-daemon.sh [--build DIR] [--pairs P] [--count N] [--jobs J] [--budget SIZE]
#                                  [--threads T]
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
build="$repo/build"
pairs=3
count=8
jobs=4
budget=4GiB
threads=2
while [ $# -gt 0 ]; do
    case "$1" in
    --build) build=$2; shift 2 ;;
    --pairs) pairs=$2; shift 2 ;;
    --count) count=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --budget) budget=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
bin="$build/bin"
params="$build/params-dev"
work=$(mktemp -d)
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT
ms() { echo $(($(date +%s%N) / 1000000)); }
median() { tr ' ' '\n' | grep . | sort -n | awk '{v[NR]=$1} END{print v[int((NR+1)/2)]}'; }

"$bin/cuzk" params generate --kind porep --sector-size 2KiB --out "$params" >/dev/null 2>&1
"$bin/cuzk" seal --sector-size 2KiB --out "$work/s" --miner-id 1000 --sector-num 1 >/dev/null
"$bin/cuzk-daemon" -l 127.0.0.1:0 --set "srs.param_cache=$params" --set "memory.total_budget=$budget" \
    --set "prover.threads=$threads" >"$work/d.log" 2>&1 &
pid=$!
while ! grep -q "serving cuzk.v1" "$work/d.log" 2>/dev/null; do
    kill -0 "$pid" 2>/dev/null || { cat "$work/d.log"; exit 1; }
    sleep 0.1
done
addr="127.0.0.1:$(sed -n 's/^cuzk-daemon: serving[^(]*(port \([0-9]*\)).*/\1/p' "$work/d.log")"
"$bin/cuzk-bench" -a "$addr" preload -c porep-2k

offline() {
    "$bin/cuzk" porep prove --c1 "$work/s/c1-wrapper.json" --params "$params" --out "$work/p" \
        --threads "$threads" >"$work/offline.log" 2>&1
}
single() {
    "$bin/cuzk-bench" -a "$addr" single --c1 "$work/s/c1-wrapper.json" --sector-num 1 >"$work/single.log"
}
off_ms=""
dae_ms=""
for i in $(seq "$pairs"); do
    t0=$(ms); offline; t1=$(ms); single; t2=$(ms)
    off_ms="$off_ms $((t1 - t0))"
    dae_ms="$dae_ms $((t2 - t1))"
    echo "pair $i: offline $((t1 - t0)) ms, daemon $((t2 - t1)) ms ($(grep '^timings' "$work/single.log"))"
done
echo "offline (cuzk porep prove, params loaded each time): median $(echo "$off_ms" | median) ms of$off_ms"
echo "daemon (cuzk-bench single, params preloaded):        median $(echo "$dae_ms" | median) ms of$dae_ms"
grep '^time:' "$work/offline.log"

t0=$(ms)
for i in $(seq "$count"); do offline; done
t1=$(ms)
seq_s=$(echo "$t0 $t1" | awk '{printf "%.1f", ($2 - $1) / 1000}')
echo "sequential offline: $count proofs in $seq_s s ($(echo "$count $seq_s" | awk '{printf "%.2f", $1 * 60 / $2}') proofs/min)"
"$bin/cuzk-bench" -a "$addr" batch --c1 "$work/s/c1-wrapper.json" --sector-num 1 -c "$count" -j "$jobs" |
    grep -E 'total time|completed|throughput'
echo "daemon peak RSS: $(grep VmHWM /proc/$pid/status | awk '{printf "%.2f GiB", $2 / 1048576}') (budget $budget)"
