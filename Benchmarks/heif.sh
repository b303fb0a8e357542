#!/usr/bin/env bash
# HEIC benchmarks of issue 22, whole process, file to file, the release binary `swift build -c release` gives a
# user, alternated A B A B with the peer tool in the same run, medians of RUNS (default 7):
#
#   1. 12 MP iPhone HEIC -> JPEG q90: lux convert vs heif-convert -q 90
#   2. JPEG -> HEIC at quality 50: lux convert --quality 50 vs heif-enc -q 50 (both x265, CRF 25)
#   3. ~195 MP HEIC (4 x 4 copies of the iPhone photo, written as a grid HEIC by lux itself: heif-enc 1.15 writes
#      no grids) -> JPEG: wall time and peak RSS of lux convert vs heif-convert
#
#   Benchmarks/heif.sh [RUNS]        # from the package root; prints Markdown tables for RESULTS.md
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-7}"
swift build -c release --product lux >&2
lux="$PWD/.build/release/lux"
work="$(mktemp -d /tmp/lux-heif-bench.XXXXXX)"
trap 'rm -rf "$work"' EXIT
heic="$PWD/Tests/Data/heic/iphone13pro_portrait_depth.heic"

source "$PWD/Benchmarks/compare.sh"

vips copy "$heic" "$work/photo.jpg[Q=95]"
vips arrayjoin "$(for _ in $(seq 16); do printf '%s ' "$work/photo.jpg"; done)" "$work/big.tif" --across 4
"$lux" convert "$work/big.tif" -o "$work/big.heic" --quality 80
rm -f "$work/big.tif"

echo "| case | command | median wall time | median peak RSS |"
echo "|---|---|---|---|"
compare "12 MP HEIC -> JPEG q90" "$lux convert $heic -o $work/out.jpg --quality 90" \
    "heif-convert -q 90 $heic $work/out.jpg"
compare "12 MP JPEG -> HEIC q50" "$lux convert $work/photo.jpg -o $work/out.heic --quality 50" \
    "heif-enc -q 50 -o $work/out.heic $work/photo.jpg"
runs=3 compare "195 MP grid HEIC -> JPEG q90" "$lux convert $work/big.heic -o $work/out.jpg --quality 90" \
    "heif-convert -q 90 $work/big.heic $work/out.jpg"
