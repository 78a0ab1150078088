#!/bin/sh
# PoRep C2 end to end with the cuzk tool on a 2KiB sector. Default run: sealing and every bad-input path
# of `porep prove|verify` and `params generate` (exit 2, a message, no output file). With --full (the
# slow suite: 2^22-domain proofs): development parameters (made once in PARAMS_DIR, then reused),
# prove, verify (the sector bound: miner and sector number); a flipped proof byte, the same sector
# re-sealed with another seed, another sector's C1, and the sector's own C1 with its ticket or its
# wrapper's SectorNum changed or for another miner do not verify (exit 1); then the same for an 8MiB sector.
# Usage: test_porep_e2e.sh <cuzk> <params dir> [--full]
set -u
cuzk="$1"
params="$2"
full="${3:-}"
msg_on="1 2"   # an invalid proof (exit 1) says why too
. "$(dirname "$0")/../../cli_expect.sh"

# one sector's data, sealed twice with two seeds; another sector number with the first seed
head -c 2032 /dev/urandom >"$dir/data"
ticket=0101010101010101010101010101010101010101010101010101010101010101
seed1=2222222222222222222222222222222222222222222222222222222222222222
seed2=3333333333333333333333333333333333333333333333333333333333333333
seal() {   # seal <out> <sector num> <seed>
  expect 0 "seal $1" "$cuzk" seal --sector-size 2KiB --out "$dir/$1" --data "$dir/data" --miner-id 1000 \
    --sector-num "$2" --ticket $ticket --seed "$3"
}
seal a 7 $seed1
seal b 7 $seed2
seal c 8 $seed1

# bad input: exit 2, a message, no proof file
printf '{"registered_proof":"StackedDrg2KiBV1_1","vanilla_proofs":' >"$dir/bad.json"
expect 2 "malformed C1" "$cuzk" porep prove --c1 "$dir/bad.json" --params "$params" --out "$dir/p0"
no_file "malformed C1" "$dir/p0"
expect 2 "missing C1" "$cuzk" porep prove --c1 "$dir/none.json" --params "$params" --out "$dir/p0"
no_file "missing C1" "$dir/p0"
mkdir "$dir/empty"
expect 2 "missing params" "$cuzk" porep prove --c1 "$dir/a/c1.json" --params "$dir/empty" --out "$dir/p0"
stderr_has "missing params" "missing parameters"
no_file "missing params" "$dir/p0"
expect 2 "wrong sector size" "$cuzk" porep prove --c1 "$dir/a/c1.json" --params "$params" --out "$dir/p0" \
  --sector-size 8MiB
stderr_has "wrong sector size" "another sector size"
no_file "wrong sector size" "$dir/p0"
expect 2 "wrong sector number" "$cuzk" porep prove --c1 "$dir/a/c1-wrapper.json" --params "$params" \
  --out "$dir/p0" --sector-num 9
expect 2 "wrong miner" "$cuzk" porep prove --c1 "$dir/a/c1.json" --params "$params" --out "$dir/p0" \
  --sector-num 7 --miner-id 1001
stderr_has "wrong miner" "replica_id"
no_file "wrong sector / miner" "$dir/p0"
expect 2 "no --out" "$cuzk" porep prove --c1 "$dir/a/c1.json" --params "$params"
expect 2 "verify: missing params" "$cuzk" porep verify --c1 "$dir/a/c1.json" --params "$dir/empty" \
  --proof "$dir/data" --miner-id 1000 --sector-num 7
expect 2 "params generate: no kind" "$cuzk" params generate --sector-size 2KiB --out "$dir/pg"
expect 2 "params generate: bad size" "$cuzk" params generate --kind porep --sector-size 3KiB --out "$dir/pg"
no_file "params generate" "$dir/pg"

if [ "$full" = "--full" ]; then
  expect 0 "params generate" "$cuzk" params generate --kind porep --sector-size 2KiB --out "$params"
  stderr_has "params generate" "NOT a trusted setup"
  expect 0 "params generate again" "$cuzk" params generate --kind porep --sector-size 2KiB --out "$params"
  grep -q reusing "$dir/out" || { echo "FAIL: the second generate did not reuse the files"; fails=$((fails + 1)); }
  expect 0 "prove" "$cuzk" porep prove --c1 "$dir/a/c1-wrapper.json" --params "$params" --out "$dir/proof" \
    --miner-id 1000 --sector-num 7
  stderr_has "prove" "development parameters"
  cat "$dir/out"
  [ "$(wc -c <"$dir/proof")" -eq 192 ] || { echo "FAIL: proof is not 192 bytes"; fails=$((fails + 1)); }
  v7="--miner-id 1000 --sector-num 7"
  expect 0 "verify" "$cuzk" porep verify --c1 "$dir/a/c1.json" --params "$params" --proof "$dir/proof" $v7
  stdout_has "verify" "valid (StackedDrg2KiBV1_1, 1 partition(s), miner 1000, sector 7, "
  expect 0 "verify (wrapped C1)" "$cuzk" porep verify --c1 "$dir/a/c1-wrapper.json" --params "$params" \
    --proof "$dir/proof" --miner-id 1000
  stdout_has "verify (wrapped C1)" "sector 7 (the wrapper's SectorNum)"
  expect 1 "verify: other seed" "$cuzk" porep verify --c1 "$dir/b/c1.json" --params "$params" --proof "$dir/proof" $v7
  expect 1 "verify: other sector" "$cuzk" porep verify --c1 "$dir/c/c1.json" --params "$params" --proof "$dir/proof" \
    --miner-id 1000 --sector-num 8
  # the sector's own C1 and proof, but not the sector: Filecoin recomputes the replica id
  sed 's/"SectorNum":7,/"SectorNum":8,/' "$dir/a/c1-wrapper.json" >"$dir/w8.json"
  expect 1 "verify: the wrapper's SectorNum changed" "$cuzk" porep verify --c1 "$dir/w8.json" --params "$params" \
    --proof "$dir/proof" --miner-id 1000
  stderr_has "verify: the wrapper's SectorNum changed" "replica_id"
  /usr/bin/python3 -c "import json,sys; c=json.load(open(sys.argv[1])); c['ticket'][0]^=1
open(sys.argv[2],'w').write(json.dumps(c,separators=(',',':')))" "$dir/a/c1.json" "$dir/ticket.json"
  expect 1 "verify: the ticket changed" "$cuzk" porep verify --c1 "$dir/ticket.json" --params "$params" \
    --proof "$dir/proof" $v7
  stderr_has "verify: the ticket changed" "replica_id"
  expect 1 "verify: another miner" "$cuzk" porep verify --c1 "$dir/a/c1.json" --params "$params" \
    --proof "$dir/proof" --miner-id 1001 --sector-num 7
  for off in 0 50 100 150 191; do   # in a, b and c; some flips leave the curve, some do not
    cp "$dir/proof" "$dir/flip"
    b=$(od -An -tu1 -j $off -N1 "$dir/proof" | tr -d ' ')
    printf "$(printf '\\%03o' $(( (b ^ 4) & 255 )))" | dd of="$dir/flip" bs=1 seek=$off conv=notrunc 2>/dev/null
    expect 1 "verify: byte $off flipped" "$cuzk" porep verify --c1 "$dir/a/c1.json" --params "$params" \
      --proof "$dir/flip" $v7
  done
  head -c 100 "$dir/proof" >"$dir/short"
  expect 2 "verify: truncated proof" "$cuzk" porep verify --c1 "$dir/a/c1.json" --params "$params" \
    --proof "$dir/short" $v7

  # A directory laid out as Filecoin's parameter cache: the files under their v28 names, no development
  # marker, and a parameters.json in the real manifest's format (cid, digest, sector_size) with their
  # digests. The same commands work unchanged, without the development warning; a file whose digest
  # differs from the manifest's is refused before anything is proved.
  mkdir -p "$dir/fil"
  manifest() {   # manifest <digest of the .params file, or "real">
    { echo "{"; sep=""
      for f in "$dir"/fil/v28-*; do
        d=$("$cuzk" params digest "$f" | cut -d' ' -f1)
        case "$f" in *.params) [ "$1" = real ] || d=$1 ;; esac
        printf '%s  "%s": {"cid": "Qm0", "digest": "%s", "sector_size": 2048}' "$sep" "$(basename "$f")" "$d"
        sep=",
"
      done
      echo; echo "}"; } >"$dir/fil/parameters.json"
  }
  for f in "$params"/v28-stacked-proof-of-replication-*8-0-0-sha256_hasher-032d3138*; do
    case "$f" in *.params|*.vk) ln -s "$f" "$dir/fil/$(basename "$f")" ;; esac
  done
  manifest real
  expect 0 "prove (Filecoin layout)" "$cuzk" porep prove --c1 "$dir/a/c1.json" --params "$dir/fil" \
    --out "$dir/proof-fil"
  if grep -q "development parameters" "$dir/err"; then
    echo "FAIL: prove (Filecoin layout): warned about development parameters"; fails=$((fails + 1))
  fi
  expect 0 "verify (Filecoin layout)" "$cuzk" porep verify --c1 "$dir/a/c1.json" --params "$dir/fil" \
    --proof "$dir/proof-fil" $v7
  expect 0 "verify (Filecoin layout): the first proof" "$cuzk" porep verify --c1 "$dir/a/c1.json" \
    --params "$dir/fil" --proof "$dir/proof" $v7
  manifest 00112233445566778899aabbccddeeff
  expect 2 "prove (Filecoin layout): digest mismatch" "$cuzk" porep prove --c1 "$dir/a/c1.json" \
    --params "$dir/fil" --out "$dir/proof-bad"
  stderr_has "prove (Filecoin layout): digest mismatch" "digest"
  no_file "prove (Filecoin layout): digest mismatch" "$dir/proof-bad"

  # 8MiB: its own parameters (3.8M constraints, the same 2^22 domain), a real sealed sector
  expect 0 "seal 8MiB" "$cuzk" seal --sector-size 8MiB --out "$dir/m" --miner-id 1000 --sector-num 9
  expect 0 "params generate 8MiB" "$cuzk" params generate --kind porep --sector-size 8MiB --out "$params"
  expect 0 "prove 8MiB" "$cuzk" porep prove --c1 "$dir/m/c1-wrapper.json" --params "$params" --out "$dir/proof8" \
    --miner-id 1000
  cat "$dir/out"
  v9="--miner-id 1000 --sector-num 9"
  expect 0 "verify 8MiB" "$cuzk" porep verify --c1 "$dir/m/c1.json" --params "$params" --proof "$dir/proof8" $v9
  expect 1 "verify 8MiB: the 2KiB proof" "$cuzk" porep verify --c1 "$dir/m/c1.json" --params "$params" \
    --proof "$dir/proof" $v9
  cp "$dir/proof8" "$dir/flip8"
  b=$(od -An -tu1 -j 100 -N1 "$dir/proof8" | tr -d ' ')
  printf "$(printf '\\%03o' $(( (b ^ 4) & 255 )))" | dd of="$dir/flip8" bs=1 seek=100 conv=notrunc 2>/dev/null
  expect 1 "verify 8MiB: byte 100 flipped" "$cuzk" porep verify --c1 "$dir/m/c1.json" --params "$params" \
    --proof "$dir/flip8" $v9
fi
[ "$fails" -eq 0 ] && echo "test_porep_e2e: all checks passed" || echo "test_porep_e2e: $fails failures"
[ "$fails" -eq 0 ]
