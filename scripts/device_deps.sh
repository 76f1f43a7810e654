#!/usr/bin/env bash
# Fills .carry (ignored by git) with what the GPU machine lacks for the
# device build, from this Debian machine's packages: stb's headers, and
# libwebp (with demux and mux) and libexif as headers and static
# libraries, with pkg-config files that point into .carry wherever it
# lands. The device tool copies it along when a run names .carry in carry;
# scripts/gpu_suite.sh and scripts/multi_gpu.sh find it there. About 4 MB.
# Usage: scripts/device_deps.sh   (after scripts/setup.sh --tests)
set -euo pipefail
cd "$(dirname "$0")/.."
carry=.carry
libdir=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)
libdir=/usr/lib/$libdir
mkdir -p "$carry/include" "$carry/lib/pkgconfig"
rm -rf "$carry/stb" && cp -r /usr/include/stb "$carry/stb"
rm -rf "$carry/include/webp" "$carry/include/libexif"
cp -r /usr/include/webp /usr/include/libexif "$carry/include/"
# Static archives only, so that the binary needs nothing of them at run time.
for lib in webp webpdemux webpmux exif; do cp "$libdir/lib$lib.a" "$carry/lib/"; done
pc() {  # NAME VERSION LIBS
  cat >"$carry/lib/pkgconfig/$1.pc" <<PC
prefix=\${pcfiledir}/../..
Name: $1
Description: $1, static, carried to the GPU machine
Version: $2
Cflags: -I\${prefix}/include
Libs: -L\${prefix}/lib $3
PC
}
pc libwebp "$(pkg-config --modversion libwebp)" "-lwebp -lm -pthread"
pc libwebpdemux "$(pkg-config --modversion libwebpdemux)" "-lwebpdemux -lwebp -lm -pthread"
pc libwebpmux "$(pkg-config --modversion libwebpmux)" "-lwebpmux -lwebp -lm -pthread"
pc libexif "$(pkg-config --modversion libexif)" "-lexif -lm"
du -sh "$carry" | sed 's/^/device deps: /'
