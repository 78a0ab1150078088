#!/bin/sh
# One PoRep partition proved and verified alone with the cuzk tool (`porep prove|verify --partition K`: the
# parameters streamed from the file, the partition proved in its own memory), and a whole sector proved
# with the parameters streamed (`--stream-params yes`). Default run: the partition number and the streaming
# choice checked before anything is proved (exit 2, a message, no file). With --full (the slow suite):
# development parameters for 2KiB (made once in PARAMS_DIR, then reused), partition 0 proved (192 bytes)
# and verified with --partition 0 and as the whole one-partition sector; a flipped byte does not verify
# (exit 1); another partition number is refused (exit 2); the whole sector proved with the parameters
# streamed verifies.
# Usage: test_porep_partition.sh <cuzk> <params dir> [--full]
set -u
cuzk="$1"
params="$2"
full="${3:-}"
msg_on="1 2"
. "$(dirname "$0")/../../cli_expect.sh"

head -c 2032 /dev/urandom >"$dir/data"
expect 0 "seal" "$cuzk" seal --sector-size 2KiB --out "$dir/s" --data "$dir/data" --miner-id 1000 --sector-num 7 \
  --ticket 0101010101010101010101010101010101010101010101010101010101010101 \
  --seed 2222222222222222222222222222222222222222222222222222222222222222
v7="--miner-id 1000 --sector-num 7"

expect 2 "prove: partition out of range" "$cuzk" porep prove --c1 "$dir/s/c1.json" --params "$params" \
  --out "$dir/p1" --partition 1
stderr_has "prove: partition out of range" "has partitions 0 to 0"
no_file "prove: partition out of range" "$dir/p1"
expect 2 "verify: partition out of range" "$cuzk" porep verify --c1 "$dir/s/c1.json" --params "$params" \
  --proof "$dir/data" --partition 1 $v7
stderr_has "verify: partition out of range" "has partitions 0 to 0"
expect 2 "prove: --partition with --stream-params no" "$cuzk" porep prove --c1 "$dir/s/c1.json" --params "$params" \
  --out "$dir/p1" --partition 0 --stream-params no
stderr_has "prove: --partition with --stream-params no" "always streams"
no_file "prove: --partition with --stream-params no" "$dir/p1"
expect 2 "prove: --stream-params maybe" "$cuzk" porep prove --c1 "$dir/s/c1.json" --params "$params" \
  --out "$dir/p1" --stream-params maybe
no_file "prove: --stream-params maybe" "$dir/p1"

if [ "$full" = "--full" ]; then
  expect 0 "params generate" "$cuzk" params generate --kind porep --sector-size 2KiB --out "$params"
  expect 0 "prove --partition 0" "$cuzk" porep prove --c1 "$dir/s/c1.json" --params "$params" --out "$dir/p0" \
    --partition 0
  stdout_has "prove --partition 0" "partition 0 of 1"
  size_is "prove --partition 0" "$dir/p0" 192
  expect 0 "verify --partition 0" "$cuzk" porep verify --c1 "$dir/s/c1.json" --params "$params" \
    --proof "$dir/p0" --partition 0 $v7
  stdout_has "verify --partition 0" "valid"
  expect 0 "verify: the sector's one partition" "$cuzk" porep verify --c1 "$dir/s/c1.json" --params "$params" \
    --proof "$dir/p0" $v7
  expect 2 "verify: another partition" "$cuzk" porep verify --c1 "$dir/s/c1.json" --params "$params" \
    --proof "$dir/p0" --partition 1 $v7
  for off in 0 60 120 191; do
    cp "$dir/p0" "$dir/flip"
    b=$(od -An -tu1 -j $off -N1 "$dir/p0" | tr -d ' ')
    printf "$(printf '\\%03o' $(( (b ^ 4) & 255 )))" | dd of="$dir/flip" bs=1 seek=$off conv=notrunc 2>/dev/null
    expect 1 "verify --partition 0: byte $off flipped" "$cuzk" porep verify --c1 "$dir/s/c1.json" \
      --params "$params" --proof "$dir/flip" --partition 0 $v7
  done
  cat "$dir/p0" "$dir/p0" >"$dir/two"
  expect 1 "verify --partition 0: two proofs" "$cuzk" porep verify --c1 "$dir/s/c1.json" --params "$params" \
    --proof "$dir/two" --partition 0 $v7
  expect 0 "prove --stream-params yes" "$cuzk" porep prove --c1 "$dir/s/c1.json" --params "$params" \
    --out "$dir/ps" --stream-params yes
  size_is "prove --stream-params yes" "$dir/ps" 192
  expect 0 "verify: the sector proved with the parameters streamed" "$cuzk" porep verify --c1 "$dir/s/c1.json" \
    --params "$params" --proof "$dir/ps" $v7
fi

[ "$fails" -eq 0 ] && echo "porep partition: all passed" || echo "porep partition: $fails failed"
[ "$fails" -eq 0 ]
