#!/bin/sh
# `cuzk-bench synth-only` on the 2KiB PoRep circuit: count mode (all-zero witness not needed) and witness
# mode (all-zero witness, and a sealed sector's C1) print the per-iteration and summary lines, with the
# constraint count of the 2KiB circuit (2,687,921, docs/REFERENCE.md §3.2); bad options exit 2.
# Usage: test_porep_e2e_synth_only.sh <cuzk-bench> <cuzk>
set -u
bench="$1"
cuzk="$2"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
fail() { echo "FAIL: $*"; cat "$dir/out" "$dir/err"; fails=$((fails + 1)); }
run() {   # run <description> <args...>: exit 0 and the expected lines
  what="$1"; shift
  "$bench" synth-only "$@" >"$dir/out" 2>"$dir/err" || { fail "$what: exit $?"; return; }
  grep -q '^=== Synthesis Microbenchmark ===$' "$dir/out" || fail "$what: no header"
  for i in 0 1; do
    grep -Eq "^\[$i\] wall=[0-9.]+ synth=[0-9.]+ circuits=1 constraints=2687921 constraints_per_s=[0-9]+ peak_rss=[0-9.]+$" \
      "$dir/out" || fail "$what: iteration $i line"
    grep -Eq "^\[$i\] instructions=([0-9]+|unavailable) cycles=([0-9]+|unavailable) cache_misses=([0-9]+|unavailable) branch_misses=([0-9]+|unavailable)" \
      "$dir/out" || fail "$what: iteration $i counters"
  done
  for s in wall synth constraints_per_s; do
    grep -Eq "^summary $s: min=[0-9.]+ median=[0-9.]+ mean=[0-9.]+$" "$dir/out" || fail "$what: summary $s"
  done
}
run "count, 2KiB" --sector-size 2KiB --mode count -i 2
run "witness, 2KiB all-zero" --sector-size 2KiB --mode witness -i 2 --lc inline2
"$cuzk" seal --sector-size 2KiB --out "$dir/s" >/dev/null 2>&1 || fail "seal"
run "witness, sealed C1" --c1 "$dir/s/c1-wrapper.json" --mode witness -i 2 --partition 0

for bad in "--sector-size 3KiB" "--sector-size 2KiB --mode nope" "--sector-size 2KiB --partition 1" \
           "--mode count" "--sector-size 2KiB --c1 $dir/s/c1.json" "--sector-size 2KiB -i 0"; do
  # shellcheck disable=SC2086
  "$bench" synth-only $bad >"$dir/out" 2>"$dir/err"
  rc=$?
  [ "$rc" -eq 2 ] && [ -s "$dir/err" ] || fail "synth-only $bad: exit $rc, expected 2 with a message"
done
[ "$fails" -eq 0 ] && echo "test_synth_only: all checks passed" || echo "test_synth_only: $fails failures"
[ "$fails" -eq 0 ]
