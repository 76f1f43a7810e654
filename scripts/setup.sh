#!/usr/bin/env bash
# Installs what gpuimg builds against on Debian 12 (or Ubuntu), if missing.
# The CUDA toolkit is optional and not installed here: with nvcc on PATH or
# at /usr/local/cuda, the build adds the GPU backend; without, it is CPU-only.
# `--sanitizers` adds what scripts/sanitize.sh and scripts/tsan.sh need:
# clang, its sanitizer and libFuzzer runtimes (only recommended by clang,
# so named here) and llvm-symbolizer, for file and line in their reports.
# chromium is a test dependency: test/golden_html_test.cpp opens the page
# of `golden check --html` in it, headless.
set -euo pipefail

packages=(build-essential cmake pkg-config zlib1g-dev libpng-dev libjpeg-dev libtiff-dev libopencv-dev libcli11-dev libstb-dev libgtest-dev chromium)
# The scale-out tests run the README's recipes for real (test/scale/):
# GNU parallel, and a Slurm of one node with munge, started by the test.
packages+=(parallel slurm-wlm munge)
if [ "${1:-}" = --sanitizers ]; then
  packages+=(clang libclang-rt-14-dev llvm-14)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all build dependencies present"
  exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "setup: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
