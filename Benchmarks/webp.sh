#!/usr/bin/env bash
# WebP benchmarks of issue 31, whole process, file to file, the release binary `swift build -c release` gives a
# user, alternated A B A B with libwebp's own tools in the same run, medians of RUNS (default 7):
#
#   1. 12 MP PNG -> lossy WebP at quality 90: lux convert --quality 90 vs cwebp -q 90
#   2. that WebP -> PNG: lux convert vs dwebp
#   3. 12 MP PNG -> lossless WebP: lux convert --lossless vs cwebp -lossless
#
#   Benchmarks/webp.sh [RUNS]        # from the package root; prints Markdown tables for RESULTS.md
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-7}"
[ -n "${SKIP_BUILD:-}" ] || swift build -c release --product lux >&2
lux="$PWD/.build/release/lux"
work="$(mktemp -d /tmp/lux-webp-bench.XXXXXX)"
trap 'rm -rf "$work"' EXIT
source "$PWD/Benchmarks/compare.sh"

vips copy "$PWD/Tests/Data/livephoto/iphone6s_livephoto_train.jpg" "$work/photo.png"
cwebp -quiet -q 90 "$work/photo.png" -o "$work/photo.webp"

echo "| case | command | median wall time | median peak RSS |"
echo "|---|---|---|---|"
compare "12 MP PNG -> WebP q90" "$lux convert $work/photo.png -o $work/out.webp --quality 90" \
    "cwebp -quiet -q 90 $work/photo.png -o $work/out.webp"
compare "12 MP WebP -> PNG" "$lux convert $work/photo.webp -o $work/out.png" "dwebp -quiet $work/photo.webp -o $work/out.png"
runs=3 compare "12 MP PNG -> lossless WebP" "$lux convert $work/photo.png -o $work/out.webp --lossless" \
    "cwebp -quiet -lossless $work/photo.png -o $work/out.webp"
