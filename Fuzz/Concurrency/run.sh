#!/bin/sh
# Builds the first-use harnesses (each: N threads at a barrier make a library's first use in a fresh process and
# compare their output with a sequential run of the same work) and runs each RUNS times (default 100), at once and
# with start times spread over 0-3 ms (STAGGER=1), counting runs that matched, mismatched or crashed.
# Usage: Fuzz/Concurrency/run.sh [RUNS]   (from the repository root; needs the -dev packages .ci/run installs)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
data=$here/../../Tests/Data
runs=${1:-100}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cc="cc -O2 -pthread"
$cc "$here/ffrace.c" -o "$out/ffrace" $(pkg-config --cflags --libs libavcodec libavutil libswscale)
$cc "$here/heifrace.c" -o "$out/heifrace" $(pkg-config --cflags --libs libheif)
$cc "$here/miscrace.c" -o "$out/miscrace" $(pkg-config --cflags --libs libjpeg libwebp lcms2 libpng zlib)
$cc "$here/rawrace.c" -o "$out/rawrace" $(pkg-config --cflags --libs libraw_r)
$cc "$here/x265race.c" -o "$out/x265race" $(pkg-config --cflags --libs x265)
$cc "$here/ffcaps.c" -o "$out/ffcaps" $(pkg-config --cflags --libs libavcodec)
c++ -O2 -std=c++17 -pthread "$here/zxrace.cpp" -o "$out/zxrace" $(pkg-config --cflags --libs zxing) 2>/dev/null


# loop NAME COMMAND...: runs COMMAND `runs` times; exit status 0 same, 1 mismatch, anything else a crash.
loop() {
    name=$1; shift
    same=0 bad=0 crashed=0
    for _ in $(seq "$runs"); do
        if "$@" >/dev/null 2>&1; then same=$((same + 1)); else
            case $? in 1) bad=$((bad + 1)) ;; *) crashed=$((crashed + 1)) ;; esac
        fi
    done
    printf '%-22s %-8s runs %4d  same %4d  mismatch %3d  crashed %3d  (load %s)\n' "$name" "${STAGGER:-at once}" \
        "$runs" "$same" "$bad" "$crashed" "$(cut -d' ' -f1-3 /proc/loadavg)"
}

"$out/ffcaps"
for stagger in "" 1; do
    if [ -n "$stagger" ]; then export STAGGER=spread; else unset STAGGER; fi
    loop "x265 (control)" "$out/x265race"
    for m in x264 h264 sws; do loop "ffmpeg $m" "$out/ffrace" $m; done
    loop "libheif decode" "$out/heifrace" decode
    loop "libheif avif" "$out/heifrace" avif
    for m in jpeg png zlib lcms webp; do loop "$m" "$out/miscrace" $m; done
    loop "libraw kdc" "$out/rawrace" "$data/raw/kodak_dc50.kdc"
    loop "zxing" "$out/zxrace"
done
