#!/usr/bin/env bash
# Build one of the project's test apps: testapps/NAME/app.c (freestanding C against the
# calimero-runtime host functions, module "env") -> wasm32 with clang + wasm-ld, then
# testapps/NAME/abi.json appended as the `calimero_abi_v1` custom section, as
# `cargo mero build` does for Rust apps (an app without abi.json gets no section:
# a module as older SDKs built them).
#
# usage: testapps/build.sh NAME [OUT_DIR]     (default OUT_DIR: target/testapps)
#        testapps/build.sh --all [OUT_DIR]
# Needs clang and wasm-ld (Debian: apt-get install clang lld); .ci/run installs them.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
name=${1:?usage: testapps/build.sh NAME|--all [OUT_DIR]}
out=${2:-$here/../target/testapps}
mkdir -p "$out"
if [ "$name" = --all ]; then
  for d in "$here"/*/; do [ -f "$d/app.c" ] && "$0" "$(basename "$d")" "$out"; done
  exit 0
fi
src="$here/$name"
[ -f "$src/app.c" ] || { echo "testapps/$name: needs app.c (and abi.json for an embedded ABI)" >&2; exit 2; }
CC=$(command -v clang || true)
LD=$(command -v wasm-ld || command -v wasm-ld-16 || command -v wasm-ld-14 || true)
[ -n "$CC" ] && [ -n "$LD" ] || { echo "testapps/build.sh: clang and wasm-ld are needed (apt-get install clang lld)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$CC" --target=wasm32 -O2 -nostdlib -ffreestanding -fno-builtin -Wall -Wextra -Werror \
  -Wno-unused-parameter -Wno-unused-function -c "$src/app.c" -o "$tmp/app.o"
"$LD" --no-entry --export-dynamic --strip-all -o "$tmp/code.wasm" "$tmp/app.o"
if [ ! -f "$src/abi.json" ]; then
  cp "$tmp/code.wasm" "$tmp/app.wasm"
else
python3 - "$src/abi.json" "$tmp/code.wasm" "$tmp/app.wasm" <<'PY'
import json, sys
def leb(n):
    out = bytearray()
    while True:
        b = n & 0x7f; n >>= 7
        if n: out.append(b | 0x80)
        else: out.append(b); return bytes(out)
abi = json.dumps(json.load(open(sys.argv[1])), separators=(',', ':')).encode()
name = b'calimero_abi_v1'
payload = leb(len(name)) + name + abi
code = open(sys.argv[2], 'rb').read()
open(sys.argv[3], 'wb').write(code + b'\x00' + leb(len(payload)) + payload)
PY
fi
# Atomic: tests of one binary may build the same app at once.
mv -f "$tmp/app.wasm" "$out/$name.wasm.tmp.$$" && mv -f "$out/$name.wasm.tmp.$$" "$out/$name.wasm"
