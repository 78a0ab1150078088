#!/bin/sh
# The cuzk tool's inputs and outputs on a bad day (fast, no parameters needed):
# - `seal --data` that is a directory, unreadable, fails to read (/proc/self/mem), is too long or endless
#   (/dev/zero), or is missing: exit 2 with the reason, nothing written; /dev/null and a short file still
#   seal (zero-filled); `snap encode --data` the same;
# - a C1 that is a 2 GiB sparse file, a 900 MB file of zeros, /dev/zero, a directory or unreadable: exit 2
#   with the reason in well under a second, whatever the command (prove or verify);
# - every prove command (porep, post, snap) and `seal` check their destination before any work: a missing
#   directory, a file where a directory should be, a directory that takes no new file (/sys), or an output
#   that is a directory, each refused before the inputs are even read (the parameters are missing here, and
#   the output is what is named), in well under a second.
# Usage: test_tool_io.sh <cuzk>
set -u
cuzk="$1"
. "$(dirname "$0")/../cli_expect.sh"

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
# quick <seconds> <expect arguments...>: expect, and the command took less than that
quick() {
  limit="$1"; shift
  t0=$(now_ms)
  expect "$@"
  t=$(( $(now_ms) - t0 ))
  [ "$t" -lt $((limit * 1000)) ] || { echo "FAIL: $2: $t ms, more than $limit s"; fails=$((fails + 1)); }
}

root=false
[ "$(id -u)" -eq 0 ] && root=true

# ---- seal --data ----
mkdir "$dir/datadir"
for bad in "$dir/datadir:a directory" "/proc/self/mem:read error" "/dev/zero:more than 2032 bytes" \
           "$dir/none:No such file"; do
  path=${bad%%:*}; why=${bad#*:}
  expect 2 "seal --data $path" "$cuzk" seal --sector-size 2KiB --out "$dir/s" --data "$path"
  stderr_has "seal --data $path" "$why"
  no_file "seal --data $path" "$dir/s"
done
head -c 2033 /dev/urandom >"$dir/long"
expect 2 "seal --data: one byte too many" "$cuzk" seal --sector-size 2KiB --out "$dir/s" --data "$dir/long"
stderr_has "seal --data: one byte too many" "2033 bytes, larger than the unpadded bytes a 2KiB sector holds"
no_file "seal --data: one byte too many" "$dir/s"
if ! $root; then   # root reads anything: the case needs an ordinary user
  head -c 100 /dev/urandom >"$dir/secret"
  chmod 000 "$dir/secret"
  expect 2 "seal --data: unreadable" "$cuzk" seal --sector-size 2KiB --out "$dir/s" --data "$dir/secret"
  stderr_has "seal --data: unreadable" "Permission denied"
  no_file "seal --data: unreadable" "$dir/s"
fi
expect 0 "seal --data /dev/null (a CC sector)" "$cuzk" seal --sector-size 2KiB --out "$dir/cc" --data /dev/null \
  --miner-id 1000 --sector-num 7
for bad in "$dir/datadir:a directory" "/proc/self/mem:read error"; do   # the same reader for snap encode
  path=${bad%%:*}; why=${bad#*:}
  expect 2 "snap encode --data $path" "$cuzk" snap encode --sector "$dir/cc" --data "$path" --out "$dir/up"
  stderr_has "snap encode --data $path" "$why"
  no_file "snap encode --data $path" "$dir/up"
done
head -c 1000 /dev/urandom >"$dir/short"
expect 0 "seal --data: a short file" "$cuzk" seal --sector-size 2KiB --out "$dir/sh" --data "$dir/short" --c1-only
[ -f "$dir/sh/c1.json" ] || { echo "FAIL: seal --data: a short file: no c1.json"; fails=$((fails + 1)); }

# ---- C1 files that are not C1 files: refused at once, whatever their size ----
truncate -s 2G "$dir/sparse2g.json"
truncate -s 900M "$dir/zeros.json"
mkdir "$dir/params"
for bad in "$dir/sparse2g.json:larger than any C1 output" "$dir/zeros.json:not a C1 output" \
           "/dev/zero:not a regular file" "$dir/datadir:a directory" "/proc/self/mem:read error"; do
  path=${bad%%:*}; why=${bad#*:}
  quick 3 2 "porep prove --c1 $path" "$cuzk" porep prove --c1 "$path" --params "$dir/params" --out "$dir/p"
  stderr_has "porep prove --c1 $path" "$why"
  no_file "porep prove --c1 $path" "$dir/p"
  quick 3 2 "porep verify --c1 $path" "$cuzk" porep verify --c1 "$path" --params "$dir/params" --proof "$dir/p" \
    --miner-id 1000 --sector-num 7
  stderr_has "porep verify --c1 $path" "$why"
done
rm -f "$dir/sparse2g.json" "$dir/zeros.json"
expect 2 "porep verify --proof DIR" "$cuzk" porep verify --c1 "$dir/cc/c1.json" --params "$dir/params" \
  --proof "$dir/datadir" --miner-id 1000 --sector-num 7
# (the parameters are missing: the keys are refused first; a directory as the proof is covered by the
#  reader's own test)

# ---- destinations checked first ----
: >"$dir/afile"
rnd=0101010101010101010101010101010101010101010101010101010101010101
for out in "$dir/missing/p:does not exist" "$dir/afile/p:is not a directory" "/sys/kernel/p:cannot create a file" \
           "$dir/datadir:a directory, not an output file"; do
  path=${out%%:*}; why=${out#*:}
  quick 3 2 "porep prove --out $path" "$cuzk" porep prove --c1 "$dir/cc/c1.json" --params "$dir/none" --out "$path"
  stderr_has "porep prove --out $path" "$why"
  quick 3 2 "post prove --out $path" "$cuzk" post prove --kind winning --sector-size 2KiB --vanilla "$dir/none" \
    --randomness $rnd --miner-id 1000 --params "$dir/none" --out "$path"
  stderr_has "post prove --out $path" "$why"
  quick 3 2 "snap prove --out $path" "$cuzk" snap prove --registered-proof 0 --vanilla "$dir/none" \
    --comm-r-old $rnd --comm-r-new $rnd --comm-d-new $rnd --params "$dir/none" --out "$path"
  stderr_has "snap prove --out $path" "$why"
done
no_file "porep prove: nothing in the parameter-less run" "$dir/missing"
for out in "$dir/afile/sub:$dir/afile is not a directory" "/sys/kernel/cuzk-x:cannot create a file in /sys/kernel"; do
  path=${out%%:*}; why=${out#*:}
  quick 3 2 "seal --out $path" "$cuzk" seal --sector-size 2KiB --out "$path" --data /dev/null
  stderr_has "seal --out $path" "$why"
done
if ! $root; then
  mkdir "$dir/ro"
  chmod 555 "$dir/ro"
  quick 3 2 "porep prove into a read-only directory" "$cuzk" porep prove --c1 "$dir/cc/c1.json" \
    --params "$dir/none" --out "$dir/ro/p"
  stderr_has "porep prove into a read-only directory" "Permission denied"
  chmod 755 "$dir/ro"
fi
# a good destination gets past the check: the missing parameters are what stops it
expect 2 "porep prove: a good destination" "$cuzk" porep prove --c1 "$dir/cc/c1.json" --params "$dir/none" \
  --out "$dir/p"
stderr_has "porep prove: a good destination" "missing parameters"
no_file "porep prove: a good destination" "$dir/p"
ls -a "$dir" | grep -q cuzk-probe && { echo "FAIL: a probe file was left behind"; fails=$((fails + 1)); }

[ "$fails" -eq 0 ] && echo "test_tool_io: all checks passed" || echo "test_tool_io: $fails failures"
[ "$fails" -eq 0 ]
