#!/bin/sh
# Builds lame.wasm from encoder.c and LAME 3.100's libmp3lame, whose source tree is the first argument (the release
# tarball from the LAME project, or Debian's `apt-get source lame`). Needs clang, lld and wasi-libc (Debian: clang lld
# wasi-libc libclang-rt-14-dev-wasm32). The result is committed: neither `npm install` nor `npm start` compiles C.
set -eu
LAME_SRC=${1:?usage: build.sh <LAME 3.100 source tree>}
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
FLAGS="--target=wasm32-wasi -O3 -DNDEBUG -DSTDC_HEADERS -DHAVE_STDINT_H -DHAVE_INTTYPES_H -DHAVE_LIMITS_H -DHAVE_ERRNO_H
  -DHAVE_STRCHR -DHAVE_MEMCPY -Dieee754_float32_t=float -I$LAME_SRC/include -I$LAME_SRC/libmp3lame -w"
for name in VbrTag bitstream encoder fft gain_analysis id3tag lame newmdct presets psymodel quantize quantize_pvt \
  reservoir set_get tables takehiro util vbrquantize version; do
  clang $FLAGS -c "$LAME_SRC/libmp3lame/$name.c" -o "$WORK/$name.o"
done
clang $FLAGS -c "$HERE/encoder.c" -o "$WORK/glue.o"
# A reactor (no main): _initialize sets up the C library, then the exported calls are used.
clang --target=wasm32-wasi -O3 -mexec-model=reactor -Wl,--export=malloc -Wl,--export=free -Wl,--strip-all \
  -o "$HERE/lame.wasm" "$WORK"/*.o
