#!/bin/sh
# SnapDeals encoding with the tool: a 2KiB CC sector from `cuzk seal --data /dev/null`, `cuzk snap encode`
# printing exactly one line whose commitments are update.json's (comm_r_old: the sector's comm_r), the update
# directory's files and sizes, the same bytes for the same data, `cuzk snap decode` giving the data back
# (whole, or its first N bytes). Every bad input (usage, data longer than the sector holds, a sector that
# holds data, a missing sector, a corrupt update.json, a --length beyond the data) exits 2 with a message
# naming it and writes nothing.
# Usage: test_snap_cli.sh <cuzk>
set -u
cuzk="$1"
. "$(dirname "$0")/../../cli_expect.sh"
json_field() {   # json_field <file> <key>: the string value of "key" in a flat JSON object
  sed -n "s/.*\"$2\": \"\([0-9a-f]*\)\".*/\1/p" "$1"
}

expect 0 "seal a CC sector" "$cuzk" seal --sector-size 2KiB --out "$dir/cc" --data /dev/null
expect 0 "seal a sector with data" "$cuzk" seal --sector-size 2KiB --out "$dir/full"
head -c 2032 /dev/urandom >"$dir/data"
head -c 1000 "$dir/data" >"$dir/piece"

# encode: one line, the commitments of update.json
expect 0 "encode" "$cuzk" snap encode --sector "$dir/cc" --data "$dir/data" --out "$dir/up"
lines=$(wc -l <"$dir/out")
[ "$lines" -eq 1 ] || { echo "FAIL: encode printed $lines lines"; cat "$dir/out"; fails=$((fails + 1)); }
grep -Eq '^comm_r_old=[0-9a-f]{64} comm_d_new=[0-9a-f]{64} comm_r_new=[0-9a-f]{64}$' "$dir/out" ||
  { echo "FAIL: encode's line"; cat "$dir/out"; fails=$((fails + 1)); }
line=$(cat "$dir/out")
u="$dir/up/update.json"
want="comm_r_old=$(json_field "$u" comm_r_old) comm_d_new=$(json_field "$u" comm_d_new) comm_r_new=$(json_field "$u" comm_r_new)"
[ "$line" = "$want" ] || { echo "FAIL: encode printed '$line', update.json says '$want'"; fails=$((fails + 1)); }
[ "$(json_field "$dir/up/update.json" comm_r_old)" = "$(json_field "$dir/cc/sector.json" comm_r)" ] ||
  { echo "FAIL: comm_r_old is not the sector's comm_r"; fails=$((fails + 1)); }
size_is "update" "$dir/up/update" 2048
size_is "tree D" "$dir/up/sc-02-data-tree-d.dat" 4064
size_is "tree R" "$dir/up/sc-02-data-tree-r-last.dat" 32
size_is "p_aux" "$dir/up/p_aux" 64
expect 0 "encode again, one thread" "$cuzk" snap encode --sector "$dir/cc" --data "$dir/data" --out "$dir/up2" \
  --threads 1
[ "$(cat "$dir/out")" = "$line" ] || { echo "FAIL: the same data gave other commitments"; fails=$((fails + 1)); }
for f in update sc-02-data-tree-d.dat sc-02-data-tree-r-last.dat p_aux; do
  same "the same data" "$dir/up/$f" "$dir/up2/$f"
done

# decode: the data back
expect 0 "decode" "$cuzk" snap decode --update "$dir/up" --out "$dir/back"
same "decode" "$dir/data" "$dir/back"
expect 0 "encode a piece" "$cuzk" snap encode --sector "$dir/cc" --data "$dir/piece" --out "$dir/up3"
expect 0 "decode a piece" "$cuzk" snap decode --update "$dir/up3" --out "$dir/back3" --length 1000
same "decode --length" "$dir/piece" "$dir/back3"
expect 0 "decode the whole piece" "$cuzk" snap decode --update "$dir/up3" --out "$dir/back4"
size_is "the whole sector's data" "$dir/back4" 2032
head -c 1000 "$dir/back4" >"$dir/back4h"
same "the piece, then zeros" "$dir/piece" "$dir/back4h"
[ "$(tail -c 1032 "$dir/back4" | tr -d '\000' | wc -c)" -eq 0 ] ||
  { echo "FAIL: not zeros after the piece"; fails=$((fails + 1)); }

# bad input: exit 2, a message, nothing written
expect 2 "no --data" "$cuzk" snap encode --sector "$dir/cc" --out "$dir/x"
expect 2 "no subcommand" "$cuzk" snap
head -c 2033 /dev/zero >"$dir/long"
expect 2 "data too long" "$cuzk" snap encode --sector "$dir/cc" --data "$dir/long" --out "$dir/x"
stderr_has "data too long" "2032"
expect 2 "not CC" "$cuzk" snap encode --sector "$dir/full" --data "$dir/data" --out "$dir/x"
stderr_has "not CC" "not a committed-capacity sector"
expect 2 "no sector" "$cuzk" snap encode --sector "$dir/none" --data "$dir/data" --out "$dir/x"
stderr_has "no sector" "sector.json"
expect 2 "no data file" "$cuzk" snap encode --sector "$dir/cc" --data "$dir/none" --out "$dir/x"
stderr_has "no data file" "$dir/none"
expect 2 "into the sector" "$cuzk" snap encode --sector "$dir/cc" --data "$dir/data" --out "$dir/cc"
stderr_has "into the sector" "sealed sector's directory"
no_file "bad encodes" "$dir/x"
expect 2 "decode --length too long" "$cuzk" snap decode --update "$dir/up" --out "$dir/y" --length 2033
stderr_has "decode --length too long" "2032"
expect 2 "decode no update" "$cuzk" snap decode --update "$dir/none" --out "$dir/y"
stderr_has "decode no update" "update.json"
sed 's/"h": 1/"h": 2/' "$dir/up/update.json" >"$dir/up2/update.json"
expect 2 "corrupt update.json" "$cuzk" snap decode --update "$dir/up2" --out "$dir/y"
stderr_has "corrupt update.json" "update.json"
no_file "bad decodes" "$dir/y"

if [ "$fails" -ne 0 ]; then
  echo "$fails failure(s)"
  exit 1
fi
echo "test_snap_cli: all passed"
