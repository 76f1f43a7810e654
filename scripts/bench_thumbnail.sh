#!/usr/bin/env bash
# End to end from the shell, one 24-megapixel JPEG (6000x4000, quality 90,
# drawn by gpuimg_bench_images) to a 25% JPEG thumbnail (1500x1000,
# quality 90): gpuimg on the CPU backend (and on CUDA where a GPU is usable)
# beside the tools people use for it, each as its users would write it:
# vipsthumbnail, ImageMagick's convert -resize 25%, Pillow's
# Image.resize(LANCZOS) and OpenCV-Python's cv2.resize(INTER_AREA), where
# installed. Whole processes, start to exit, median of RUNS (default 5)
# after one warm-up; the input in the page cache. Prints a markdown table
# with the commands and the machine. Not like for like in result: only
# gpuimg and Pillow give Pillow's bytes; vipsthumbnail shrinks in the JPEG
# decoder first (shrink-on-load), and ImageMagick and OpenCV filter
# differently.
#
# Usage: scripts/bench_thumbnail.sh [RUNS] [BUILD]   (BUILD: default build)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
build=${2:-build}
source scripts/bench/e2e_rows.sh
photo_input "bench_thumbnail"
out=$tmp/thumb.jpg
python=${PYTHON:-python3}

row "gpuimg, CPU" "gpuimg IN.jpg --resize 25% OUT.jpg --quality 90 --device cpu" \
  "$gpuimg" "$in" --resize 25% "$out" --quality 90 --device cpu
if "$gpuimg" "$in" --resize 25% "$out" --device cuda >/dev/null 2>&1; then
  row "gpuimg, CUDA" "gpuimg IN.jpg --resize 25% OUT.jpg --quality 90 --device cuda" \
    "$gpuimg" "$in" --resize 25% "$out" --quality 90 --device cuda
fi
if command -v vipsthumbnail >/dev/null; then
  row "vipsthumbnail $(vips_version)" "vipsthumbnail IN.jpg -s 1500x1000 -o OUT.jpg[Q=90]" \
    vipsthumbnail "$in" -s 1500x1000 -o "$out[Q=90]"
fi
if [ -x /usr/bin/convert ]; then
  row "ImageMagick $(imagemagick_version)" \
    "convert IN.jpg -resize 25% -quality 90 OUT.jpg" /usr/bin/convert "$in" -resize 25% -quality 90 "$out"
fi
if "$python" -c 'import PIL' 2>/dev/null; then
  row "Pillow $("$python" -c 'import PIL; print(PIL.__version__)')" \
    "Image.open(IN).resize((1500, 1000), Image.LANCZOS).save(OUT, quality=90)" \
    "$python" -c 'import sys; from PIL import Image; Image.open(sys.argv[1]).resize((1500, 1000), Image.LANCZOS).save(sys.argv[2], quality=90)' "$in" "$out"
fi
if "$python" -c 'import cv2' 2>/dev/null; then
  row "OpenCV-Python $("$python" -c 'import cv2; print(cv2.__version__)')" \
    "cv2.imwrite(OUT, cv2.resize(cv2.imread(IN), (1500, 1000), interpolation=cv2.INTER_AREA), [cv2.IMWRITE_JPEG_QUALITY, 90])" \
    "$python" -c 'import sys, cv2; cv2.imwrite(sys.argv[2], cv2.resize(cv2.imread(sys.argv[1]), (1500, 1000), interpolation=cv2.INTER_AREA), [cv2.IMWRITE_JPEG_QUALITY, 90])' "$in" "$out"
fi

cpu=$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')
echo "### JPEG thumbnail, 6000x4000 to 1500x1000, end to end"
echo
echo "\`scripts/bench_thumbnail.sh $runs\`, $(date -u +%Y-%m-%d), $cpu, $(nproc) threads; median of $runs runs."
echo
print_rows "gpuimg CPU"
