#!/bin/bash
# Runs `lux demo` once and samples its resident memory every 0.05 s: prints the peak (MB) and when it happened (s after
# the start), so that a peak can be placed in the demo's timeline.
#
# usage: Benchmarks/demo-peak.sh BIN   (a binary from `swift build -c release --product lux`)
set -eu
bin=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
t0=$(date +%s.%N)
"$bin" demo -o "$out/demo" > /dev/null 2>&1 &
pid=$!
max=0
at=0
while kill -0 "$pid" 2> /dev/null; do
  r=$(awk '/VmRSS/{print $2}' "/proc/$pid/status" 2> /dev/null || true)
  if [ -n "$r" ] && [ "$r" -gt "$max" ]; then max=$r; at=$(date +%s.%N); fi
  sleep 0.05
done
awk -v m="$max" -v a="$at" -v t="$t0" 'BEGIN { printf "peak %d MB at %.2f s\n", m / 1024, a - t }'
