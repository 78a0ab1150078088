#!/bin/sh
# The tools' one option parser: `--help` on every command prints its usage on stdout and exits 0; an
# unknown option, a missing value, a bad value, a missing required option, a stray argument and an
# unknown command exit 2 with the one message style on stderr:
#   <prog>: <message>
#   try '<prog> --help'
# Usage: test_cli_opts.sh <cuzk> <cuzk-bench> <cuzk-daemon>
set -u
cuzk="$1"
bench="$2"
daemon="$3"
. "$(dirname "$0")/../cli_expect.sh"

help_ok() {   # help_ok <prog as printed> <command...>: --help exits 0 with "usage: <prog>" first
  prog="$1"; shift
  expect 0 "$prog --help" "$@" --help
  head -n 1 "$dir/out" | grep -q "^usage: $prog" || {
    echo "FAIL: $prog --help: first line '$(head -n 1 "$dir/out")'"; fails=$((fails + 1)); }
  [ -s "$dir/err" ] && { echo "FAIL: $prog --help wrote on stderr"; cat "$dir/err"; fails=$((fails + 1)); }
}
style() {   # style <prog> <message part> <command...>: exit 2, "<prog>: ...<part>..." then the try line
  prog="$1"; part="$2"; shift 2
  expect 2 "$prog: $part" "$@"
  first=$(head -n 1 "$dir/err"); second=$(sed -n 2p "$dir/err")
  case "$first" in
    "$prog: "*"$part"*) ;;
    *) echo "FAIL: $prog: '$part': first line '$first'"; fails=$((fails + 1)) ;;
  esac
  [ "$second" = "try '$prog --help'" ] || { echo "FAIL: $prog: '$part': second line '$second'"; fails=$((fails + 1)); }
  [ "$(wc -l <"$dir/err")" -eq 2 ] || { echo "FAIL: $prog: '$part': more than two lines"; cat "$dir/err"; fails=$((fails + 1)); }
}

# --help (and -h) everywhere
help_ok "cuzk" "$cuzk"
expect 0 "cuzk -h" "$cuzk" -h
for c in selfcheck groth16 "groth16 prove" "groth16 verify" zkey "zkey export" "zkey export verificationkey" \
         params "params check" "params digest" "params generate" circuit "circuit info" seal porep \
         "porep prove" "porep verify"; do
  # shellcheck disable=SC2086
  help_ok "cuzk $c" "$cuzk" $c
done
expect 0 "cuzk porep prove -h" "$cuzk" porep prove -h
help_ok "cuzk-daemon" "$daemon"
help_ok "cuzk-bench" "$bench"
for c in micro synth-only c1-check gen-vanilla single batch submit await cancel status metrics preload evict; do
  help_ok "cuzk-bench $c" "$bench" "$c"
done
expect 0 "micro --help lists the benchmarks" "$bench" micro --help
grep -q "^  msm-g1 " "$dir/out" || { echo "FAIL: micro --help lacks the list"; fails=$((fails + 1)); }
# --help wins over the missing required options
expect 0 "porep prove --help with nothing else" "$cuzk" porep prove --out x --help

# one error style, exit 2
style "cuzk" "expected a command" "$cuzk"
style "cuzk" "unknown command 'nope'" "$cuzk" nope
style "cuzk porep" "unknown command 'draw'" "$cuzk" porep draw
style "cuzk porep prove" "unknown option '--fast'" "$cuzk" porep prove --c1 a --params b --out c --fast
style "cuzk porep prove" "unknown option '-x'" "$cuzk" porep prove -x
style "cuzk porep prove" "--c1 needs a value" "$cuzk" porep prove --params b --out c --c1
style "cuzk porep prove" "--threads: bad value 'lots'" "$cuzk" porep prove --c1 a --params b --out c --threads lots
style "cuzk porep verify" "--proof is required" "$cuzk" porep verify --c1 a --params b
style "cuzk porep verify" "unknown option '--out'" "$cuzk" porep verify --c1 a --params b --out c
style "cuzk porep prove" "unexpected argument 'extra'" "$cuzk" porep prove --c1 a --params b --out c extra
style "cuzk groth16 prove" "expected <circuit.zkey>" "$cuzk" groth16 prove a b c
style "cuzk groth16 verify" "unexpected argument 'd'" "$cuzk" groth16 verify a b c d
style "cuzk groth16 prove" "--threads: bad value '-1'" "$cuzk" groth16 prove a b c d --threads -1
style "cuzk params check" "--check: bad value 'everything' (expects none, curve or subgroup)" \
  "$cuzk" params check f --check everything
style "cuzk params generate" "--kind: bad value 'post'" "$cuzk" params generate --kind post --out d
style "cuzk params generate" "--kind is required" "$cuzk" params generate --sector-size 2KiB --out d
style "cuzk circuit info" "--partition: bad value '-1'" "$cuzk" circuit info --kind porep --sector-size 2KiB \
  --partition -1
style "cuzk circuit info" "--hash takes no value" "$cuzk" circuit info --kind porep --sector-size 2KiB --hash=yes
style "cuzk seal" "--ticket: bad value 'abc' (expects 64 hex digits)" "$cuzk" seal --sector-size 2KiB --out d \
  --ticket abc
style "cuzk seal" "--miner-id: bad value 'x'" "$cuzk" seal --sector-size 2KiB --out d --miner-id x
style "cuzk seal" "--out is required" "$cuzk" seal --sector-size 2KiB
style "cuzk zkey export" "unknown command 'key'" "$cuzk" zkey export key a b
style "cuzk selfcheck" "unexpected argument 'now'" "$cuzk" selfcheck now
style "cuzk-daemon" "unknown option '--bogus'" "$daemon" --bogus
style "cuzk-daemon" "--grace: bad value 'soon'" "$daemon" --grace soon
style "cuzk-daemon" "--set: bad value 'memory'" "$daemon" --set memory
style "cuzk-daemon" "--listen needs a value" "$daemon" -l
style "cuzk-bench" "expected a command" "$bench"
style "cuzk-bench" "unknown command 'nope'" "$bench" nope
style "cuzk-bench" "--addr needs a value" "$bench" -a
style "cuzk-bench micro" "expected <name>" "$bench" micro
style "cuzk-bench micro" "unknown micro benchmark 'nope'" "$bench" micro nope
style "cuzk-bench micro" "--log2: bad value '99'" "$bench" micro ntt --log2 99
style "cuzk-bench micro" "--lc: bad value 'list'" "$bench" micro synth --lc list
style "cuzk-bench synth-only" "--mode: bad value 'nope'" "$bench" synth-only --sector-size 2KiB --mode nope
style "cuzk-bench synth-only" "exactly one of --c1 and --sector-size" "$bench" synth-only --mode count
style "cuzk-bench c1-check" "--iters: bad value '0'" "$bench" c1-check --sector-size 2KiB --iters 0
style "cuzk-bench gen-vanilla" "unknown kind 'snap-prove'" "$bench" gen-vanilla snap-prove
style "cuzk-bench single" "--c1 is required" "$bench" single
style "cuzk-bench single" "--priority: bad value 'urgent'" "$bench" single --c1 f --priority urgent
style "cuzk-bench batch" "--concurrency: bad value '999'" "$bench" batch --c1 f -j 999
style "cuzk-bench await" "--job is required" "$bench" await
style "cuzk-bench preload" "--circuit-id is required" "$bench" preload
style "cuzk-bench status" "unknown option '--c1'" "$bench" status --c1 f
# a size a micro benchmark refuses is a usage error in the same style, not a failed result check
style "cuzk-bench micro" "g1-batch-add: --log2 must be 10..24" "$bench" micro g1-batch-add --log2 25
style "cuzk-bench micro" "groth16-prove: --log2 must be in [2, 24]" "$bench" micro groth16-prove --log2 25
# a single-threaded micro benchmark says so, and its result line shows the one thread it ran on
expect 0 "fp-mul with --threads 2" "$bench" micro fp-mul --threads 2 --iters 1
stdout_has "fp-mul's result line" "^fp-mul threads=1 "
stderr_has "fp-mul's note" "fp-mul runs on one thread; --threads 2 ignored"

[ "$fails" -eq 0 ] && echo "test_cli_opts: all checks passed" || echo "test_cli_opts: $fails failures"
[ "$fails" -eq 0 ]
