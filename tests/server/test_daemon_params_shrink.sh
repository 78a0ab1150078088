#!/bin/sh
# A parameter file truncated while it is being read (an operator replacing or re-downloading it in place):
# the offline tool exits 2 with a message naming the file instead of dying of SIGBUS; the daemon fails the
# preload that needed the file (through the independent Python client), keeps serving, and loads the
# restored file on the next preload (nothing of the failed load stays cached). The 2KiB Winning PoSt
# development parameters (47 MB) are copied to a scratch directory, truncated there once the reader has
# opened them (the CUZK_TIMING line after the verifying key) and before it has decoded every point.
# Usage: test_daemon_params_shrink.sh <cuzk-daemon> <cuzk-bench> <cuzk> <params dir>
set -u
daemon="$1"
bench="$2"
cuzk="$3"
params="$4"
msg_on="2"
. "$(dirname "$0")/../cli_expect.sh"
. "$(dirname "$0")/daemon_util.sh"

expect 0 "Winning 2KiB parameters" "$cuzk" params generate --kind winning-post --sector-size 2KiB --out "$params"
stem=$(sed -n 's/.*\(v28-[0-9a-z_-]*\).*/\1/p' "$dir/out" "$dir/err" | head -n 1)
[ -n "$stem" ] && [ -f "$params/$stem.params" ] || { echo "FAIL: no parameter file named"; cat "$dir/out"; exit 1; }
p="$dir/params"
mkdir "$p"
cp "$params/$stem".* "$p/"
f="$p/$stem.params"

# wait_for <file> <text>: until the number of lines of file holding text exceeds $seen (at most 30 s)
wait_for() {
  i=0
  while [ "$(grep -c -- "$2" "$1" 2>/dev/null)" -le "$seen" ]; do
    [ $i -lt 3000 ] || return 1
    sleep 0.01; i=$((i + 1))
  done
}

# The offline tool (one thread, every point checked in the subgroup: seconds to reach the end of the file).
seen=0
CUZK_TIMING=1 "$cuzk" params check "$f" --check subgroup --threads 1 >"$dir/out" 2>"$dir/err" &
tool=$!
wait_for "$dir/err" "phase=params_load_vk" && truncate -s 200000 "$f" || kill "$tool"
wait "$tool"
rc=$?
[ "$rc" -eq 2 ] || { echo "FAIL: cuzk params check of a shrinking file: exit $rc, expected 2"; cat "$dir/err"; fails=$((fails + 1)); }
stderr_has "the tool names the file" "$f: changed size while in use"
cp "$params/$stem.params" "$f" # back in place: the same file, whole again

# The daemon: a preload during which the file shrinks fails; the daemon lives on. A truncation that comes
# too late (the load already done) is tried again, up to three times.
CUZK_TIMING=1
export CUZK_TIMING
start_daemon "$dir/d.log" --set "srs.param_cache=$p" --set memory.total_budget=4GiB ||
  { echo "FAIL: the daemon did not start"; cat "$dir/d.log"; exit 1; }
unset CUZK_TIMING
a="127.0.0.1:$port"
hit=0
n=0
while [ $hit -eq 0 ] && [ $n -lt 3 ]; do
  n=$((n + 1))
  seen=$(grep -c "phase=params_load_vk" "$dir/d.log")
  $py srs "$a" preload winning-2k >"$dir/out" 2>"$dir/err" &
  client=$!
  wait_for "$dir/d.log" "phase=params_load_vk" && truncate -s 200000 "$f"
  wait "$client"
  crc=$?
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "FAIL: the daemon died while its parameter file shrank"; tail -n 5 "$dir/d.log"; exit 1
  fi
  cat "$dir/out"
  if [ "$crc" -ne 0 ]; then
    hit=1
    out_has "the failed preload names the file" "$stem.params"
  else
    "$bench" -a "$a" evict -c winning-2k >/dev/null 2>&1
  fi
  cp "$params/$stem.params" "$f"
done
[ $hit -eq 1 ] || { echo "FAIL: the file was never truncated during a load ($n tries)"; fails=$((fails + 1)); }
expect 0 "preload once the file is whole again" "$bench" -a "$a" preload -c winning-2k
out_has "preload after the failure" "winning-2k loaded in"
expect 0 "evict" "$bench" -a "$a" evict -c winning-2k
out_has "evict" "winning-2k evicted"
stop_daemon "$dir/d.log" || { echo "FAIL: the daemon did not stop cleanly"; fails=$((fails + 1)); }

[ $fails -eq 0 ] && echo "test_daemon_params_shrink: all passed" || echo "test_daemon_params_shrink: $fails failure(s)"
[ $fails -eq 0 ]
