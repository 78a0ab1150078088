#!/bin/sh
# SnapDeals through cuzk-daemon and cuzk-bench on a real 2KiB update (a CC sector sealed by `cuzk seal`,
# random data encoded by `cuzk snap encode`, its vanilla partition proof by `cuzk snap vanilla`; sent one
# PartitionProof per partition with the raw commitments, as Curio sends them). Without parameters (fast):
# bad requests come back INVALID_ARGUMENT (gRPC status 3) naming what is wrong (another comm_r_new, the
# 8MiB proof's partition count, a vanilla file that is not one), a good one fails when it starts naming the
# missing file, counted under proof_kind="snap_update"; preload of snap-2k says what is missing. With
# --full (the slow suite, on the development parameters snap_params_dev made): preload of snap-2k, single
# with the proof verified offline, a batch, the independent Python grpcio client's proof checked by `cuzk
# snap verify` (and refused for another comm_d_new), the counters, eviction.
# Usage: test_daemon_snap.sh <cuzk-daemon> <cuzk-bench> <cuzk> <params dir> [--full]
set -u
daemon="$1"
bench="$2"
cuzk="$3"
params="$4"
full="${5:-}"
msg_on="2"
. "$(dirname "$0")/../cli_expect.sh"
. "$(dirname "$0")/daemon_util.sh"

expect 0 "seal a CC sector" "$cuzk" seal --sector-size 2KiB --out "$dir/cc" --data /dev/null
head -c 2032 /dev/urandom >"$dir/data"
expect 0 "encode" "$cuzk" snap encode --sector "$dir/cc" --data "$dir/data" --out "$dir/up"
line=$(cat "$dir/out")
r_old=$(printf '%s' "$line" | sed -n 's/.*comm_r_old=\([0-9a-f]*\).*/\1/p')
d_new=$(printf '%s' "$line" | sed -n 's/.*comm_d_new=\([0-9a-f]*\).*/\1/p')
r_new=$(printf '%s' "$line" | sed -n 's/.*comm_r_new=\([0-9a-f]*\).*/\1/p')
[ ${#r_old} -eq 64 ] && [ ${#d_new} -eq 64 ] && [ ${#r_new} -eq 64 ] || { echo "FAIL: encode's line: $line"; exit 1; }
# the commitment with its first byte's low bit flipped (still a field element)
other() {
  printf '%s%s%s' "$(printf '%s' "$1" | cut -c1)" "$(printf '%s' "$1" | cut -c2 | tr 0-9a-f 1032547698badcfe)" \
    "$(printf '%s' "$1" | cut -c3-)"
}
expect 0 "vanilla" "$cuzk" snap vanilla --update "$dir/up" -o "$dir/v"
snap() {   # snap <command> <comm_r_old> <comm_d_new> <comm_r_new> <extra args...>: a cuzk-bench SnapDeals request
  c="$1"; x="$2"; y="$3"; z="$4"; shift 4
  "$bench" -a "$a" "$c" --kind snap --vanilla "$dir/v" --comm-r-old "$x" --comm-d-new "$y" --comm-r-new "$z" "$@"
}

if [ "$full" != "--full" ]; then
  start_daemon "$dir/d.log" --set "srs.param_cache=$dir/noparams" --set memory.total_budget=2GiB ||
    { echo "FAIL: the daemon did not start"; cat "$dir/d.log"; exit 1; }
  a="127.0.0.1:$port"
  expect 1 "another comm_r_new" snap single "$r_old" "$d_new" "$(other "$r_new")" --registered-proof 0
  out_has "another comm_r_new" "gRPC status 3"
  out_has "another comm_r_new" "partition 0"
  expect 1 "the 8MiB proof" snap single "$r_old" "$d_new" "$r_new" --registered-proof StackedDrg8MiBV1
  out_has "the 8MiB proof" "gRPC status 3"
  out_has "the 8MiB proof" "takes 4"
  head -c 100 "$dir/v" >"$dir/cut"
  expect 2 "a vanilla file that is not one" "$bench" -a "$a" single --kind snap --vanilla "$dir/cut" \
    --comm-r-old "$r_old" --comm-d-new "$d_new" --comm-r-new "$r_new" --sector-size 2KiB
  expect 2 "no commitments" "$bench" -a "$a" single --kind snap --vanilla "$dir/v" --sector-size 2KiB
  expect 1 "a good request without parameters" snap single "$r_old" "$d_new" "$r_new" --sector-size 2KiB
  out_has "without parameters" "status: FAILED"
  out_has "without parameters" "v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-fb9e095b"
  expect 1 "preload snap-2k without parameters" "$bench" -a "$a" preload -c snap-2k
  out_has "preload snap-2k" "missing parameters"
  expect 0 "metrics" "$bench" -a "$a" metrics
  out_has "metrics" 'cuzk_proofs_failed{proof_kind="snap_update"} 1'
  out_has "metrics" 'cuzk_proofs_completed{proof_kind="snap_update"} 0'
  stop_daemon "$dir/d.log" || { echo "FAIL: SIGTERM"; fails=$((fails + 1)); }
  [ "$fails" -eq 0 ] && echo "test_daemon_snap: all checks passed"
  exit "$fails"
fi

start_daemon "$dir/d.log" --set "srs.param_cache=$params" --set memory.total_budget=4GiB \
  --set synthesis.threads=2 || { echo "FAIL: the daemon did not start"; cat "$dir/d.log"; exit 1; }
a="127.0.0.1:$port"
expect 0 "preload snap-2k" "$bench" -a "$a" preload -c snap-2k
out_has "preload" "snap-2k loaded in"
expect 0 "single" snap single "$r_old" "$d_new" "$r_new" --registered-proof 0 --verify-params "$params"
out_has "single" "proof: 192 bytes"
out_has "single" "offline verification: valid"
expect 0 "batch -c 2 -j 2" snap batch "$r_old" "$d_new" "$r_new" --sector-size 2KiB -c 2 -j 2 --verify-params "$params"
out_has "batch" "type: snap-update"
out_has "batch" "completed: 2, failed: 0"

# the independent client; its proof checked by the offline verifier, and refused for another comm_d_new
expect 0 "Python Prove, SnapDeals" $py snap "$a" 0 "$r_old" "$d_new" "$r_new" "$dir/py.proof" "$dir/v"
expect 0 "the Python client's proof verifies" "$cuzk" snap verify --registered-proof 0 --comm-r-old "$r_old" \
  --comm-d-new "$d_new" --comm-r-new "$r_new" --params "$params" --proof "$dir/py.proof"
expect 1 "not for another comm_d_new" "$cuzk" snap verify --registered-proof 0 --comm-r-old "$r_old" \
  --comm-d-new "$(other "$d_new")" --comm-r-new "$r_new" --params "$params" --proof "$dir/py.proof"

expect 0 "metrics" "$bench" -a "$a" metrics
out_has "metrics" 'cuzk_proofs_completed{proof_kind="snap_update"} 4'
expect 0 "status" "$bench" -a "$a" status
out_has "status" "snap-2k"
out_has "status" "snap_update"
expect 0 "evict snap-2k" "$bench" -a "$a" evict -c snap-2k
out_has "evict" "snap-2k evicted"
stop_daemon "$dir/d.log" || { echo "FAIL: SIGTERM"; fails=$((fails + 1)); }
grep -q "^TIMELINE,[0-9]*,COMPLETED,python-snap," "$dir/d.log" ||
  { echo "FAIL: no TIMELINE of the Python job"; fails=$((fails + 1)); }

[ "$fails" -eq 0 ] && echo "test_daemon_snap: all checks passed"
exit "$fails"
