#!/bin/sh
# The daemon's soak: a cuzk-daemon on a loopback port, several clients at once for a given time with
# valid and malformed requests, cancels, disconnects, parameter evictions and one parameter-file
# replacement (tests/server/daemon_soak.py drives them and checks the end: every proof verified offline,
# none lost or duplicated, the daemon alive, its RSS and threads back to the baseline).
#
# Usage: scripts/soak-daemon.sh [--minutes N] [--clients N] [--bin DIR] [--params DIR] [--work DIR]
#   --minutes N   how long the clients run (default 30; fractions allowed)
#   --clients N   clients at once (default 4)
#   --bin DIR     where cuzk-daemon, cuzk and cuzk-bench are (default build/bin, a Release build)
#   --params DIR  the cache of 2KiB development parameters, made there when missing (default
#                 build/params-dev); the daemon works on a copy, so the cache itself is never replaced
#   --work DIR    scratch (default a new temporary directory, removed when the soak passes)
# Exit status 0 when every check holds; the summary is printed last.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
minutes=30
clients=4
bin="$root/build/bin"
params="$root/build/params-dev"
work=""
while [ $# -gt 0 ]; do
  case "$1" in
    --minutes) minutes="$2"; shift 2 ;;
    --clients) clients="$2"; shift 2 ;;
    --bin) bin="$2"; shift 2 ;;
    --params) params="$2"; shift 2 ;;
    --work) work="$2"; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "soak-daemon.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
for b in cuzk-daemon cuzk cuzk-bench; do
  [ -x "$bin/$b" ] || { echo "soak-daemon.sh: no $bin/$b (build first)" >&2; exit 2; }
done
keep=0
if [ -z "$work" ]; then work=$(mktemp -d "${TMPDIR:-/tmp}/cuzk-soak.XXXXXX"); else keep=1; mkdir -p "$work"; fi
mkdir -p "$params" "$work/params" || exit 2

# 2KiB Winning and Window PoSt development parameters, made once in the cache, copied for the daemon
for kind in winning-post window-post; do
  "$bin/cuzk" params generate --kind "$kind" --sector-size 2KiB --out "$params" >"$work/gen.log" 2>&1 ||
    { echo "soak-daemon.sh: params generate --kind $kind failed:" >&2; cat "$work/gen.log" >&2; exit 2; }
done
cp "$params"/v28-proof-of-spacetime-fallback-* "$work/params/" || exit 2

# vanilla proofs of sectors sealed here, for one randomness below 2^254
rnd=$(/usr/bin/python3 -c "import os; b=bytearray(os.urandom(32)); b[31]&=0x3f; print(b.hex())")
echo "$rnd" >"$work/rnd"
"$bin/cuzk-bench" gen-vanilla winning -o "$work/win.vproof" --randomness "$rnd" >"$work/gen.log" 2>&1 &&
  "$bin/cuzk-bench" gen-vanilla window --sectors 2 -o "$work/w0.vproof" -o "$work/w1.vproof" \
    --registered-proof StackedDrgWindow2KiBV1_1 --randomness "$rnd" >>"$work/gen.log" 2>&1 ||
  { echo "soak-daemon.sh: gen-vanilla failed:" >&2; cat "$work/gen.log" >&2; exit 2; }

# the daemon: inputs limited so that oversize requests stay cheap to send (every limit 1 MiB, Winning
# 64 KiB); a queue cap small enough to be reached now and then
log="$work/daemon.log"
"$bin/cuzk-daemon" -l 127.0.0.1:0 --set "srs.param_cache=$work/params" --set memory.total_budget=4GiB \
  --set synthesis.threads=2 --set scheduler.max_queued=16 \
  --set daemon.max_input_porep=1MiB --set daemon.max_input_snap=1MiB --set daemon.max_input_window_post=1MiB \
  --set daemon.max_input_winning_post=64KiB >"$log" 2>&1 &
pid=$!
port=""
i=0
while [ $i -lt 1200 ]; do # up to 2 minutes: the host may pause us
  port=$(sed -n 's/^cuzk-daemon: serving[^(]*(port \([0-9]*\)).*/\1/p' "$log" 2>/dev/null)
  [ -n "$port" ] && break
  kill -0 "$pid" 2>/dev/null || { echo "soak-daemon.sh: the daemon did not start:" >&2; cat "$log" >&2; exit 1; }
  sleep 0.1; i=$((i + 1))
done
[ -n "$port" ] || { echo "soak-daemon.sh: the daemon did not start in time" >&2; kill "$pid"; exit 1; }
echo "soak: daemon pid $pid on 127.0.0.1:$port, $clients clients for $minutes min, scratch $work"

/usr/bin/python3 "$root/tests/server/daemon_soak.py" "127.0.0.1:$port" "$pid" "$work" "$bin/cuzk" "$minutes" "$clients"
rc=$?

# the daemon still stops cleanly
if kill -TERM "$pid" 2>/dev/null; then
  i=0
  while kill -0 "$pid" 2>/dev/null && [ $i -lt 1200 ]; do sleep 0.1; i=$((i + 1)); done
  wait "$pid"
  drc=$?
  [ "$drc" -eq 0 ] || { echo "soak: the daemon exited $drc after SIGTERM"; tail -n 5 "$log"; rc=1; }
else
  echo "soak: the daemon had died"; tail -n 20 "$log"; rc=1
fi
if [ $rc -eq 0 ] && [ $keep -eq 0 ]; then rm -rf "$work"; else echo "soak: scratch kept in $work"; fi
[ $rc -eq 0 ] && echo "soak-daemon.sh: passed" || echo "soak-daemon.sh: FAILED"
exit $rc
