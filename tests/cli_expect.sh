# Shared by the shell tests of the cuzk tool (sourced, not run): a scratch directory $dir removed on
# exit, a failure count $fails, and
#   expect <exit code> <description> <command...>
# which runs the command with its output in $dir/out and $dir/err, counts a failure when the exit code
# differs, and also when a code listed in $msg_on (default: 2, bad input) comes without a message.
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
