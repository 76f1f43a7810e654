#!/usr/bin/env bash
# Installs what gpuimg builds against on Debian 12 (or Ubuntu), if missing.
# The CUDA toolkit is optional and not installed here: with nvcc on PATH or
# at /usr/local/cuda, the build adds the GPU backend; without, it is CPU-only.
# `--tests` adds what the test suite runs besides gpuimg: chromium, which
# opens the page of `golden check --html` headless
# (test/golden_html_test.cpp), and GNU parallel and a one-node Slurm with
# munge, for the scale-out recipes the tests run for real (test/scale/).
# `--sanitizers` adds those and what scripts/sanitize.sh and scripts/tsan.sh
# need: clang, its sanitizer and libFuzzer runtimes (only recommended by
# clang, so named here) and llvm-symbolizer, for file and line in their
# reports.
set -euo pipefail

# libwebp-dev: WebP through libwebp itself (libwebpdemux for animations);
# libopencv-dev only for the tests' oracles: gpuimg never links OpenCV,
# whose imgcodecs loads some 130 libraries into every process.
packages=(build-essential cmake pkg-config zlib1g-dev libpng-dev libjpeg-dev libtiff-dev libwebp-dev libexif-dev libopencv-dev libcli11-dev libstb-dev libgtest-dev)
tests=(chromium parallel slurm-wlm munge)
for option in "$@"; do
  case $option in
    --tests) packages+=("${tests[@]}") ;;
    --sanitizers) packages+=("${tests[@]}" clang libclang-rt-14-dev llvm-14) ;;
    *) echo "setup: unknown option '$option' (--tests, --sanitizers)" >&2; exit 2 ;;
  esac
done
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all dependencies present"
  exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "setup: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
