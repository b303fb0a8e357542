#!/bin/bash
# `lux live edit` of one Live Photo pair (--stabilize, then a SepiaTone chain) with each binary in turn, and ffmpeg
# re-encoding the pair's movie alone (libx264 veryfast CRF 20, Lux's movie settings) as the peer, N rounds alternated.
# Prints per run: what ran, the load before it, wall user system (s) and peak RSS (KB) from GNU time.
#
# usage: Benchmarks/livephoto-edit-alternated.sh STILL.jpg N BIN1 BIN2 ...   (the movie beside the still, same name .mov)
set -eu
still=$1; n=$2; shift 2
movie="${still%.*}.mov"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for i in $(seq 1 "$n"); do
  for bin in "$@"; do
    for mode in "--stabilize" "--chain SepiaTone"; do
      rm -rf "$work/out"; load=$(cut -d' ' -f1 /proc/loadavg)
      # shellcheck disable=SC2086
      /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$bin" live edit "$still" -o "$work/out" $mode > /dev/null 2>&1
      echo "$bin $mode $i load $load: $(cat "$work/time")"
    done
  done
  load=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -f '%e %U %S %M' -o "$work/time" ffmpeg -v error -y -i "$movie" -c:v libx264 -preset veryfast -crf 20 \
    -c:a copy "$work/ff.mov"
  echo "ffmpeg re-encode $i load $load: $(cat "$work/time")"
done
