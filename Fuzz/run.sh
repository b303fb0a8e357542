#!/usr/bin/env bash
# Builds one libFuzzer harness and runs it.
#
#   Fuzz/run.sh NAME SECONDS        fuzz for SECONDS, then merge what is new into Fuzz/corpus/NAME
#   Fuzz/run.sh NAME 0              build only
#   Fuzz/run.sh NAME repro FILE…    run the harness once on each FILE (reproduce a crash)
#   Fuzz/run.sh list                the harness names
#
# NAME is one of: tiff dngopcode ljpeg jpeg png icc exif filterchain quicktime adjustments cameraraw heif movie webp gif.
#
# Every Swift module (Lux's and the harness) is compiled with -sanitize=fuzzer,address, -enable-testing and
# -parse-as-library (the harness's @_cdecl entry point is the program's; libraries are parsed so anyway),
# the C shims with -fsanitize=fuzzer-no-link,address. The fuzzer runs at nice 19, single process, with
# the limits the reliability rules set: an input taking more than 1 s is a hang (-timeout=1; 5 s for cameraraw), more than
# 2 GB of memory is excessive (-rss_limit_mb=2048, which also caps a single malloc). It is seeded from
# files Lux writes (the harness's own seed list), the package's Tests/Data and the committed minimised corpus;
# findings go to Fuzz/.work/NAME/artifacts/. Environment: LUX_FUZZ_JOBS (build jobs, default 1),
# LUX_FUZZ_ARGS (extra libFuzzer flags).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
testdata="$here/../Tests/Data"
names="tiff dngopcode ljpeg jpeg png icc exif filterchain quicktime adjustments cameraraw heif movie webp gif"

name="${1:-}"
if [[ "$name" == list ]]; then echo "$names"; exit 0; fi
if [[ -z "$name" || " $names " != *" $name "* || $# -lt 2 ]]; then
    sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
mode="$2"

# Longest input per harness: enough for the structures each parser reads, small enough to stay fast.
case "$name" in
    tiff | quicktime | cameraraw | heif | movie | webp | gif) max_len=65536 ;;
    jpeg | png) max_len=32768 ;;
    icc) max_len=16384 ;;
    exif | ljpeg) max_len=8192 ;;
    dngopcode) max_len=4096 ;;
    filterchain) max_len=512 ;;
    adjustments) max_len=2048 ;;
esac

cd "$here"
# SwiftPM caches the build plan of the path dependency (Lux): a source file added to Lux since the last fuzz
# build is then missing ("cannot find type … in scope"). Dropping the cached plan makes it plan again.
rm -f "$here/.build/release.yaml"
echo "building fuzz-$name (release, -sanitize=fuzzer,address)…" >&2
nice -n 19 swift build -c release --product "fuzz-$name" -j "${LUX_FUZZ_JOBS:-1}" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing -Xswiftc -parse-as-library \
    -Xcc -fsanitize=fuzzer-no-link,address -Xswiftc -use-ld=lld 2>&1 | grep -vE "Cannot export local symbol|^\[[0-9]+/[0-9]+\]" >&2 || true
bin="$here/.build/release/fuzz-$name"
[[ -x "$bin" ]] || { echo "build failed" >&2; exit 1; }
[[ "$mode" == 0 ]] && exit 0

# The Swift runtime's backtracer would race libFuzzer's crash handler; libFuzzer and ASan print the stack.
export SWIFT_BACKTRACE=enable=no
# A hang is an input taking more than 1 s, except for camera raws: LibRaw reads each header in a forked child first
# (lux_libraw_probe), and forking the fuzzer's large address-sanitised process takes a good part of a second.
timeout=1
[[ "$name" == cameraraw ]] && timeout=5
limits=("-timeout=$timeout" -rss_limit_mb=2048 "-max_len=$max_len")
# libheif 1.15 allocates a coded picture's planes at the size its HEVC parameter sets claim (57054² from a 2.7 KB
# file) before its own security limit refuses that size; the memory is never touched (`lux convert` of such a file
# peaks at 54 MB and fails with a typed error). The RSS limit still catches memory that is used.
[[ "$name" == heif ]] && limits+=(-malloc_limit_mb=8192)
# libFuzzer's crash handler signals its process group; setsid keeps the caller's shell out of it.
if [[ "$mode" == repro ]]; then
    shift 2
    exec setsid "$bin" "${limits[@]}" -runs=1 "$@"
fi

work="$here/.work/$name"
mkdir -p "$work/queue" "$work/seeds" "$work/artifacts" "$work/extra" "$here/corpus/$name"
# Writing the seeds encodes HEIC images and movies with x265, whose encoder leaks a few allocations of its own
# (inside x265_encoder_open, x265 3.5): leak checking is off for this step only (the fuzzing itself decodes).
ASAN_OPTIONS=detect_leaks=0 LUX_FUZZ_WRITE_SEEDS="$work/seeds" "$bin" >/dev/null 2>&1 || { echo "seed generation failed" >&2; exit 1; }

# Real files from other software.
dirs=("$work/seeds" "$here/corpus/$name")
case "$name" in
    tiff | cameraraw) dirs+=("$testdata/raw") ;;
    jpeg) dirs+=("$testdata/livephoto") ;;
    heif) dirs+=("$testdata/heic") ;;
    quicktime)
        # The iPhone movie is megabytes of frames after its 'moov': keep its atoms with the media data cut off.
        python3 - "$testdata/livephoto/iphone6s_livephoto_train.mov" "$work/extra/iphone-moov.mov" <<'PY' || true
import struct, sys
data, out, i = open(sys.argv[1], 'rb').read(), b'', 0
while i + 8 <= len(data):
    size, kind = struct.unpack('>I4s', data[i:i + 8])
    size = len(data) - i if size == 0 else size
    if size < 8: break
    out += data[i:i + size] if kind != b'mdat' else struct.pack('>I4s', 8, b'mdat')
    i += size
open(sys.argv[2], 'wb').write(out)
PY
        ;;
    movie)
        # A 10-bit HEVC movie and an H.264 one with B-frames, made by ffmpeg (what an iPhone 8 or later records).
        if command -v ffmpeg >/dev/null; then
            ffmpeg -v error -y -f lavfi -i testsrc=size=64x48:rate=10 -f lavfi -i sine=frequency=440:sample_rate=8000 \
                -t 0.6 -c:v libx265 -x265-params log-level=error -pix_fmt yuv420p10le -tag:v hvc1 -c:a aac \
                "$work/extra/hevc10.mov" || true
            ffmpeg -v error -y -f lavfi -i testsrc=size=64x48:rate=10 -t 0.6 -c:v libx264 -bf 2 \
                "$work/extra/h264-bframes.mov" || true
        fi
        ;;
    icc)
        [[ -d /usr/share/color/icc ]] && dirs+=(/usr/share/color/icc)
        command -v exiftool >/dev/null &&
            exiftool -q -b -ICC_Profile "$testdata/livephoto/iphone6s_livephoto_train.jpg" >"$work/extra/iphone.icc" || true
        ;;
    exif)
        dirs+=("$testdata/raw/metadata-only")
        if command -v exiftool >/dev/null; then
            for f in "$testdata/livephoto/iphone6s_livephoto_train.jpg" "$testdata/raw/canon_eos550d_magiclantern_14bit.dng"; do
                exiftool -q -b -EXIF "$f" >"$work/extra/$(basename "$f").exif" || true
            done
        fi
        ;;
esac
dirs+=("$work/extra")

start=$(date +%s)
set +e
setsid nice -n 19 "$bin" "${limits[@]}" -max_total_time="$mode" -print_final_stats=1 \
    -artifact_prefix="$work/artifacts/" ${LUX_FUZZ_ARGS:-} "$work/queue" "${dirs[@]}" 2>&1 | tee "$work/last-run.log" |
    grep -E "^#[0-9]+.*(pulse|DONE)|^#[0-9]+: cov|stat::|ERROR|SUMMARY|Test unit written|==[0-9]+==" >&2
status=${PIPESTATUS[0]}
set -e
echo "fuzz-$name: ran $(($(date +%s) - start)) s, exit $status; log $work/last-run.log" >&2
grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$work/last-run.log" >&2 || true

# Keep the committed corpus small: the fewest inputs (of at most 16 KiB) that reach every edge seen.
new="$work/merged"
rm -rf "$new" && mkdir -p "$new"
setsid nice -n 19 "$bin" "-timeout=$timeout" -rss_limit_mb=2048 -max_len=$((max_len < 16384 ? max_len : 16384)) \
    -use_counters=0 -merge=1 "$new" "$here/corpus/$name" "$work/queue" "$work/seeds" \
    >"$work/merge.log" 2>&1 || { echo "merge failed, see $work/merge.log" >&2; exit "$status"; }
rm -rf "$here/corpus/$name" && mv "$new" "$here/corpus/$name"
echo "corpus/$name: $(ls "$here/corpus/$name" | wc -l) files, $(du -sh --apparent-size "$here/corpus/$name" | cut -f1)" >&2
exit "$status"
