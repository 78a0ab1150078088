#!/bin/sh
# The library as another program sees it: installs the build tree under a temporary prefix (and once
# more under a DESTDIR), checks that every installed header compiles on its own, builds cubic.c with
# `pkg-config --cflags --libs cuzk` against libcuzk.so and again statically against libcuzk.a, runs
# both, and checks that the two libraries define no global symbol outside the cuzk_ prefix and
# export exactly the functions and variables the headers mark CUZK_API.
# Usage: test_install.sh <build dir> <source dir> <C compiler> [extra compiler flags]
set -eu
build=$1
src=$2
cc=$3
extra=${4:-}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cuzk-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() {
    echo "test_install: FAIL: $*" >&2
    exit 1
}
cflags="-std=gnu17 -Wall -Wextra -Werror $extra"

# DESTDIR is honoured: the files land under $DESTDIR/<prefix>, and cuzk.pc names <prefix>.
DESTDIR="$tmp/dest" cmake --install "$build" --prefix /opt/cuzk >/dev/null
for f in include/cuzk/api.h include/cuzk/cs.h include/cuzk/groth16.h lib/libcuzk.so lib/libcuzk.a \
    lib/pkgconfig/cuzk.pc; do
    [ -e "$tmp/dest/opt/cuzk/$f" ] || fail "the DESTDIR install has no $f"
done
grep -qx 'prefix=/opt/cuzk' "$tmp/dest/opt/cuzk/lib/pkgconfig/cuzk.pc" || fail "cuzk.pc under DESTDIR: wrong prefix"

prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
lib=$prefix/lib
export PKG_CONFIG_PATH="$lib/pkgconfig"
pkg-config --exists cuzk || fail "pkg-config finds no cuzk in $PKG_CONFIG_PATH"
version=$(pkg-config --modversion cuzk)
[ -f "$lib/libcuzk.so.$version" ] || fail "no libcuzk.so.$version"
soname=$(readelf -d "$lib/libcuzk.so.$version" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
[ "$soname" = "libcuzk.so.${version%%.*}" ] || fail "soname '$soname', expected libcuzk.so.${version%%.*}"
[ "$(readlink "$lib/libcuzk.so")" = "$soname" ] && [ "$(readlink "$lib/$soname")" = "libcuzk.so.$version" ] ||
    fail "libcuzk.so -> $soname -> libcuzk.so.$version links are wrong"

# Each public header stands alone (and twice: include guards).
for h in "$prefix"/include/cuzk/*.h; do
    name=cuzk/$(basename "$h")
    printf '#include "%s"\n#include "%s"\n' "$name" "$name" >"$tmp/header.c"
    # shellcheck disable=SC2046,SC2086
    $cc $cflags $(pkg-config --cflags cuzk) -fsyntax-only "$tmp/header.c" || fail "$name does not compile alone"
done

# Against the shared library.
# shellcheck disable=SC2046,SC2086
$cc $cflags -o "$tmp/cubic" "$src/tests/install/cubic.c" $(pkg-config --cflags --libs cuzk) -Wl,-rpath,"$lib" ||
    fail "cubic.c does not build against libcuzk.so"
readelf -d "$tmp/cubic" | grep -q "NEEDED.*\[$soname\]" || fail "cubic is not linked to $soname"
"$tmp/cubic" || fail "cubic (shared) failed"

# Against the static library: -lcuzk becomes -l:libcuzk.a, the rest is pkg-config --static's.
static_libs=$(pkg-config --static --libs cuzk | sed 's/-lcuzk\( \|$\)/-l:libcuzk.a\1/')
# shellcheck disable=SC2046,SC2086
$cc $cflags -o "$tmp/cubic-static" "$src/tests/install/cubic.c" $(pkg-config --cflags cuzk) $static_libs ||
    fail "cubic.c does not build against libcuzk.a"
if readelf -d "$tmp/cubic-static" | grep -q 'NEEDED.*libcuzk'; then
    fail "cubic-static needs libcuzk.so"
fi
"$tmp/cubic-static" || fail "cubic (static) failed"

# Symbols: nothing global without the prefix, and the exports are the headers' CUZK_API names. An
# AddressSanitizer build adds an "__odr_asan.<name>" indicator beside each exported variable: the
# sanitizer's, not the library's.
defined() {
    if [ "$1" = so ]; then
        nm -D --defined-only "$lib/libcuzk.so" | awk '{print $NF}'
    else
        nm -g --defined-only "$lib/libcuzk.a" | awk 'NF == 3 {print $3}'
    fi | grep -v '^__odr_asan\.' | sort -u
}
bad=$(defined so | grep -v '^cuzk_' || true)
[ -z "$bad" ] || fail "libcuzk.so exports symbols without the cuzk_ prefix:
$bad"
bad=$(defined a | grep -v '^cuzk_' || true)
[ -z "$bad" ] || fail "libcuzk.a defines global symbols without the cuzk_ prefix:
$bad"
# The declarations marked CUZK_API, comments and the NONNULL argument lists removed first.
cat "$prefix"/include/cuzk/*.h | tr '\n' ' ' | sed -e 's:/\*\([^*]\|\*\+[^*/]\)*\*\+/::g' \
    -e 's/CUZK_NONNULL([0-9, ]*)//g' -e 's/#define CUZK_API[^#]*//g' >"$tmp/headers.txt"
{
    grep -o 'CUZK_API[^;(]*(' "$tmp/headers.txt" | grep -o 'cuzk_[a-z0-9_]* *($' | tr -d ' ('
    grep -o 'CUZK_API extern[^;(]*;' "$tmp/headers.txt" | grep -o 'cuzk_[a-z0-9_]* *;$' | tr -d ' ;'
} | sort -u >"$tmp/api.txt"
[ -s "$tmp/api.txt" ] || fail "no CUZK_API declaration found in the installed headers"
defined so >"$tmp/so.txt"
defined a >"$tmp/a.txt"
for exports in so a; do
    missing=$(comm -23 "$tmp/api.txt" "$tmp/$exports.txt")
    [ -z "$missing" ] || fail "declared CUZK_API but not exported by libcuzk.$exports:
$missing"
    extra=$(comm -13 "$tmp/api.txt" "$tmp/$exports.txt")
    [ -z "$extra" ] || fail "exported by libcuzk.$exports but declared CUZK_API in no public header:
$extra"
done
echo "test_install: $(wc -l <"$tmp/api.txt") API symbols, shared and static builds proved and verified"
