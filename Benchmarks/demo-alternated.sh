#!/bin/bash
# Runs `lux demo` with each binary in turn, N rounds (A B A B ...), and prints per run: the binary, the load before it,
# wall / user+system CPU / peak RSS (GNU time), the Live Photo still's size (a blurred one is smaller), and the times
# (s after start) at which the RAW + JPEG, bracket, low-light, Live Photo still and movie, and last edit files appeared.
#
# usage: Benchmarks/demo-alternated.sh N BIN1 BIN2 ...   (binaries from `swift build -c release --product lux`)
set -eu
n=$1; shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for i in $(seq 1 "$n"); do
  for bin in "$@"; do
    out="$work/demo"; rm -rf "$out"
    load=$(cut -d' ' -f1 /proc/loadavg)
    t0=$(date +%s.%N)
    /usr/bin/time -f '%e s %U+%S cpu %M KB' -o "$work/time" "$bin" demo -o "$out" > /dev/null 2>&1
    phases=""
    for f in 02-raw.jpg 03-bracket-plus-2ev.jpg 04-low-light-quality.jpg 05-live-photo.jpg 05-live-photo.mov \
      07-live-watermark.MOV; do
      phases+=$(stat -c %.3Y "$out/$f" | awk -v t="$t0" '{printf "%.2f ", $1 - t}')
    done
    echo "$bin $i load $load: $(cat "$work/time") lp $(stat -c %s "$out/05-live-photo.jpg") | $phases"
  done
done
