#!/bin/sh
# Lux Studio's benchmarks (issue 26), whole process against the release binary: slider-to-preview latency of the RAW
# developer on a 12 MP DNG (goal: at most 100 ms on 2 cores), viewfinder frames per second and frame latency for 1
# and for 10 viewers, the server's memory after 30 s of 10 viewers and its peak.
#
#   swift build -c release && Benchmarks/studio.sh
#
# LUX=.build/debug/lux QUICK=1 Benchmarks/studio.sh checks the script itself in a minute or two (3 runs, 10-second
# viewer sessions, in which a debug build may deliver no viewfinder frame at all); its figures mean nothing.
#
# The slider-to-preview time is a whole HTTP request as the page makes it (curl, POST of the adjustments, the
# 1024-pixel JPEG preview back), timed by hyperfine after the DNG is decoded once, two different slider positions
# alternated; Benchmarks/studio_sliders.py then moves each of four sliders request by request. The viewfinder
# figures come from Benchmarks/studio_viewers.py (needs Pillow, Debian's python3-pil; its docstring defines the frame
# latency). Record the figures with `uptime`'s load average in Benchmarks/RESULTS.md.
set -eu
cd "$(dirname "$0")/.."
lux=${LUX:-.build/release/lux}
if [ "${QUICK:-0}" = 1 ]; then runs=3 short=10 long=10; else runs=20 short=15 long=30; fi
work=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT
"$lux" capture --raw -o "$work" >/dev/null
dng=$(cd "$work" && ls *.dng | head -1)
"$lux" studio --port 0 -o "$work" >"$work/url" &
pid=$!
while ! grep -q http "$work/url" 2>/dev/null; do sleep 0.2; done
url=$(sed -n 's/^Lux Studio: \(http[^ ]*\)\/ .*/\1/p' "$work/url")
address=${url#http://}
uptime
curl -sS --fail -o /dev/null -X POST --data '{}' "$url/api/develop/0/$dng?size=1024"   # decode once
# hyperfine -N splits each command itself: the single quotes keep the JSON's double quotes; --fail makes a refused
# request (an error answer is fast) fail the benchmark instead of being timed.
hyperfine -N --warmup 3 --runs "$runs" \
    "curl -sS --fail -o /dev/null -X POST --data '{\"exposure\":0.5}' $url/api/develop/0/$dng?size=1024" \
    "curl -sS --fail -o /dev/null -X POST --data '{\"exposure\":-0.5,\"contrastAmount\":0.3}' $url/api/develop/0/$dng?size=1024"
# Every slider moved request by request (hyperfine repeats one request, which for white balance and noise reduction
# would time the kept draft): exposure, contrast, temperature, noise reduction. Give it more URLs (another binary's
# server) to alternate them request by request.
python3 Benchmarks/studio_sliders.py "0/$dng" "$runs" 1024 "$url"
python3 Benchmarks/studio_viewers.py "$address" 1 "$short"
python3 Benchmarks/studio_viewers.py "$address" 10 "$long" --pid "$pid"
grep -E '^Vm(HWM|RSS)' "/proc/$pid/status"
uptime
