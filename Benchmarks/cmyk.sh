#!/usr/bin/env bash
# CMYK benchmark of issue 31, whole process, file to file, the release binary `swift build -c release` gives a
# user, alternated A B A B with Little CMS's own jpgicc in the same run, medians of RUNS (default 7):
#
#   12 MP CMYK JPEG (vips, Adobe-inverted, with its profile) -> sRGB JPEG at quality 90, relative colorimetric:
#   lux convert --quality 90 vs jpgicc -t1 -q90
#
#   Benchmarks/cmyk.sh [RUNS]        # from the package root; prints Markdown tables for RESULTS.md
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-7}"
swift build -c release --product lux >&2
lux="$PWD/.build/release/lux"
work="$(mktemp -d /tmp/lux-cmyk-bench.XXXXXX)"
trap 'rm -rf "$work"' EXIT
source "$PWD/Benchmarks/compare.sh"

vips icc_transform "$PWD/Tests/Data/livephoto/iphone6s_livephoto_train.jpg" "$work/cmyk.jpg[Q=92]" cmyk \
    --intent relative
vipsheader "$work/cmyk.jpg" >&2

echo "| case | command | median wall time | median peak RSS |"
echo "|---|---|---|---|"
compare "12 MP CMYK JPEG -> sRGB JPEG q90" "$lux convert $work/cmyk.jpg -o $work/out.jpg --quality 90" \
    "jpgicc -t1 -q90 $work/cmyk.jpg $work/out.jpg"
