# Shared by the shell tests of the cuzk tool (sourced, not run): a scratch directory $dir removed on
# exit, a failure count $fails, and
#   expect <exit code> <description> <command...>
# which runs the command with its output in $dir/out and $dir/err, counts a failure when the exit code
# differs, and also when a code listed in $msg_on (default: 2, bad input) comes without a message; then
# checks that count a failure with a line saying why: expect_line (expect 0, and stdout is exactly one
# given line), no_file (nothing, not even a temporary file, at a path), stderr_has / stdout_has (the last
# expect's output holds a text), size_is (a file's size), same (two files' bytes).
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
: "${msg_on:=2}"
expect() {
  want="$1"; what="$2"; shift 2
  "$@" >"$dir/out" 2>"$dir/err"
  got=$?
  if [ "$got" -ne "$want" ]; then
    echo "FAIL: $what: exit $got, expected $want"; cat "$dir/out" "$dir/err"; fails=$((fails + 1))
  else
    for code in $msg_on; do
      if [ "$want" -eq "$code" ] && ! [ -s "$dir/err" ]; then
        echo "FAIL: $what: no message on stderr"; fails=$((fails + 1))
      fi
    done
  fi
}
no_file() {   # no_file <description> <path>
  if [ -e "$2" ] || ls "$2".tmp.* >/dev/null 2>&1; then
    echo "FAIL: $1: $2 (or a temporary file) was left behind"; fails=$((fails + 1))
  fi
}
stderr_has() {   # stderr_has <description> <text>
  grep -q "$2" "$dir/err" || { echo "FAIL: $1: stderr lacks '$2'"; cat "$dir/err"; fails=$((fails + 1)); }
}
stdout_has() {   # stdout_has <description> <text>
  grep -q "$2" "$dir/out" || { echo "FAIL: $1: stdout lacks '$2'"; cat "$dir/out"; fails=$((fails + 1)); }
}
size_is() {   # size_is <description> <file> <bytes>
  n=$(wc -c <"$2" 2>/dev/null || echo 0)
  [ "$n" -eq "$3" ] || { echo "FAIL: $1: $2 has $n bytes, $3 expected"; fails=$((fails + 1)); }
}
same() {   # same <description> <file> <file>
  cmp -s "$2" "$3" || { echo "FAIL: $1: $2 and $3 differ"; fails=$((fails + 1)); }
}
expect_line() {   # expect_line <description> <line> <command...>
  what="$1"; line="$2"; shift 2
  expect 0 "$what" "$@"
  got=$(cat "$dir/out")
  [ "$got" = "$line" ] || { echo "FAIL: $what: got '$got', expected '$line'"; fails=$((fails + 1)); }
}
