#!/bin/sh
# Installs the Debian packages the build and the tests need, and only those that are missing.
set -e
need="cmake ninja-build gcc make pkgconf python3 libgmp-dev libssl-dev libjansson-dev \
  libgrpc-dev libprotobuf-c-dev protobuf-c-compiler libmicrohttpd-dev python3-grpcio python3-grpc-tools"
missing=""
for p in $need; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
# node and npm run the snarkjs / circom interop test peers; any install of them will do (Debian's, or
# a newer one already on the machine), so they are checked by command, not by package.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  missing="$missing nodejs npm"
fi
[ -z "$missing" ] && exit 0
echo "installing missing Debian packages:$missing"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing
