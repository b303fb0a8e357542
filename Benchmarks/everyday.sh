#!/bin/bash
# The commands users run (issue 25), whole process and file to file: each Lux command alternated with its peer
# (Lux, peer, Lux, peer, ...) in one run, RUNS times each (default 7); prints a Markdown table of median wall
# times, median peak RSS (/usr/bin/time -f %M, the largest process) and the ratio Lux ÷ peer, and the load average.
#
#   Benchmarks/make-inputs.py /tmp/lux-everyday                  # once: mosaic.{tif,png,jpg}, sRGB.icc, P3.icc
#   swift build -c release                                        # the binary a user gets, no extra flags
#   Benchmarks/everyday.sh [/tmp/lux-everyday]                    # LUX=path/to/lux RUNS=7 CASES='blur thumbnail'
#
# CPU s is the median user + system CPU time (/usr/bin/time %U + %S): on a loaded machine wall times mostly measure
# how the scheduler shares the cores among processes, CPU time what each command costs.
#
# Cases: blur (JPEG → GaussianBlur σ 10 → JPEG, vips gaussblur), reencode (JPEG → JPEG q90, vips copy), tiffblur
# (single-strip TIFF → blur → TIFF, vips gaussblur), p3 (sRGB → Display P3 TIFF → TIFF, tificc one thread),
# thumbnail (160 px thumbnail of the JPEG, vipsthumbnail), resize (Lanczos-3 to 25 %, vips resize), pngblur
# (PNG → blur → PNG, vips gaussblur); convertsize (the thumbnail by `lux convert --size`, the chain before
# `lux thumbnail`, not run unless named in CASES). Lux blurs on the encoded values (--working-space srgb), as vips does.
set -euo pipefail
in=${1:-/tmp/lux-everyday}
lux=${LUX:-$(cd "$(dirname "$0")/.." && pwd)/.build/release/lux}
runs=${RUNS:-7}
cases=${CASES:-blur reencode tiffblur p3 thumbnail resize pngblur}  # convertsize: the thumbnail before lux thumbnail
out=$(mktemp -d /tmp/lux-everyday-out.XXXXXX)
trap 'rm -rf "$out"' EXIT

lux_cmd() {
    case $1 in
        blur) echo "$lux filter $in/mosaic.jpg -o $out/l.jpg --chain 'GaussianBlur radius=10' --working-space srgb --overwrite" ;;
        reencode) echo "$lux convert $in/mosaic.jpg -o $out/l.jpg --quality 90 --overwrite" ;;
        tiffblur) echo "$lux filter $in/mosaic.tif -o $out/l.tif --chain 'GaussianBlur radius=10' --working-space srgb --overwrite" ;;
        p3) echo "$lux convert $in/mosaic.tif -o $out/l.tif --color-space p3 --overwrite" ;;
        thumbnail) echo "$lux thumbnail $in/mosaic.jpg -o $out/l.jpg --size 160 --overwrite" ;;
        convertsize) echo "$lux convert $in/mosaic.jpg -o $out/l.jpg --size 160x160 --overwrite" ;;
        resize) echo "$lux convert $in/mosaic.tif -o $out/l.tif --size 1008x756 --overwrite" ;;
        pngblur) echo "$lux filter $in/mosaic.png -o $out/l.png --chain 'GaussianBlur radius=10' --working-space srgb --overwrite" ;;
    esac
}
peer_cmd() {
    case $1 in
        blur) echo "vips gaussblur $in/mosaic.jpg $out/p.jpg[Q=90] 10" ;;
        reencode) echo "vips copy $in/mosaic.jpg $out/p.jpg[Q=90]" ;;
        tiffblur) echo "vips gaussblur $in/mosaic.tif $out/p.tif 10" ;;
        p3) echo "tificc -t1 -i $in/sRGB.icc -o $in/P3.icc $in/mosaic.tif $out/p.tif" ;;
        thumbnail | convertsize) echo "vipsthumbnail $in/mosaic.jpg -s 160x160 -o $out/p.jpg" ;;
        resize) echo "vips resize $in/mosaic.tif $out/p.tif 0.25" ;;
        pngblur) echo "vips gaussblur $in/mosaic.png $out/p.png 10" ;;
    esac
}

# Prints "microseconds kilobytes cpu-seconds" for one run of a shell command.
measure() {
    rm -f "$out"/p.* "$out"/l.*
    local start end
    start=$(date +%s%N)
    /usr/bin/time -f '%M %U %S' -o "$out/rss" sh -c "$1" >/dev/null 2>"$out/err" || { cat "$out/err" >&2; exit 1; }
    end=$(date +%s%N)
    echo "$(( (end - start) / 1000 )) $(tail -1 "$out/rss" | awk '{ print $1, $2 + $3 }')"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg); $runs alternated runs each; lux = $lux"
echo
echo "| case | Lux s | Lux CPU s | Lux MB | peer | peer s | peer CPU s | peer MB | ratio | CPU ratio |"
echo "|---|---:|---:|---:|---|---:|---:|---:|---:|---:|"
for c in $cases; do
    : >"$out/lux.t"; : >"$out/peer.t"
    sh -c "$(lux_cmd "$c")" >/dev/null 2>&1; sh -c "$(peer_cmd "$c")" >/dev/null 2>&1  # warm-up
    for _ in $(seq "$runs"); do
        measure "$(lux_cmd "$c")" >>"$out/lux.t"
        measure "$(peer_cmd "$c")" >>"$out/peer.t"
    done
    lt=$(cut -d' ' -f1 "$out/lux.t" | median); lm=$(cut -d' ' -f2 "$out/lux.t" | median)
    pt=$(cut -d' ' -f1 "$out/peer.t" | median); pm=$(cut -d' ' -f2 "$out/peer.t" | median)
    lc=$(cut -d' ' -f3 "$out/lux.t" | median); pc=$(cut -d' ' -f3 "$out/peer.t" | median)
    peer=$(peer_cmd "$c" | cut -d' ' -f1-2)
    awk -v c="$c" -v lt="$lt" -v lm="$lm" -v p="$peer" -v pt="$pt" -v pm="$pm" -v lc="$lc" -v pc="$pc" 'BEGIN {
        printf "| %s | %.3f | %.2f | %.0f | `%s` | %.3f | %.2f | %.0f | %.2f× | %.2f× |\n", c, lt / 1e6, lc, lm / 1024, p,
            pt / 1e6, pc, pm / 1024, lt / pt, lc / pc }'
done
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
