#!/bin/sh
# Builds mpg123.wasm from decoder.c and libmpg123 (mpg123 1.31, LGPL 2.1), whose source tree is the first argument.
# The committed build is Debian bookworm's 1.31.2-1+deb12u1 (`apt-get source mpg123`, Debian's patches applied: the
# upstream fix of CVE-2024-10573, a buffer overflow on crafted streams); an upstream release tarball needs 1.31.4 or
# later for that fix. Needs clang, lld, llvm-ar and wasi-libc (Debian: clang lld llvm wasi-libc
# libclang-rt-14-dev-wasm32). The result is committed: neither `npm install` nor `npm start` compiles C.
# Only libmpg123, with the generic C decoder (no assembly), float output and no modules or console messages.
set -eu
MPG123_SRC=${1:?usage: build.sh <mpg123 source tree>}
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cp -a "$MPG123_SRC/." "$WORK/"
# wasi-libc makes lseek a macro, which libmpg123's reader structure (a member named lseek) cannot take.
printf '#include <unistd.h>\n#undef lseek\n' > "$WORK/wasi-prelude.h"
# configure's config.sub predates wasm32-wasi: any cross host will do, the CPU code is chosen by --with-cpu.
cd "$WORK"
./configure --host=i686-pc-linux-gnu CC="clang --target=wasm32-wasi" AR=llvm-ar RANLIB=llvm-ranlib CPPFLAGS="-include $WORK/wasi-prelude.h" \
  CFLAGS="-O3" --with-cpu=generic_fpu --disable-shared --enable-static --disable-modules --with-audio=dummy \
  --with-default-audio=dummy --enable-network=no --disable-largefile --disable-lfs-alias --disable-messages \
  --disable-16bit --disable-8bit --disable-32bit --disable-equalizer --disable-icy --disable-id3v2 --disable-string \
  --disable-feature_report >/dev/null
make src/libmpg123/libmpg123.la >/dev/null 2>&1
clang --target=wasm32-wasi -O3 -I src/libmpg123 -c "$HERE/decoder.c" -o glue.o
# A reactor (no main): _initialize sets up the C library, then the exported calls are used. The stack goes first in
# memory, so that overflowing it traps instead of writing over the C library's data.
clang --target=wasm32-wasi -O3 -mexec-model=reactor -Wl,--stack-first -Wl,-z,stack-size=262144 -Wl,--strip-all \
  -o "$HERE/mpg123.wasm" glue.o \
  src/libmpg123/.libs/libmpg123.a src/compat/.libs/libcompat.a -lm
