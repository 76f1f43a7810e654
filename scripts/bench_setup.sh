#!/usr/bin/env bash
# Installs what the benchmarks compare gpuimg with on Debian 12 (or Ubuntu):
# ImageMagick, vips and NumPy (for the generated inputs). Not part of
# scripts/setup.sh: the build and the tests need none of it.
set -euo pipefail
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends imagemagick libvips-tools python3-numpy >/dev/null
echo "bench_setup: ImageMagick $(/usr/bin/convert -version | head -1 | cut -d' ' -f3), $(vips --version), NumPy $(/usr/bin/python3 -c 'import numpy; print(numpy.__version__)')"
