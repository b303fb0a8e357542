#!/usr/bin/env bash
# Builds the release `lux` with the Swift runtime and Foundation linked statically, and checks that it runs.
#
#   Scripts/release.sh [EXTRA SWIFT BUILD ARGUMENTS…]     e.g. Scripts/release.sh -Xcc -march=x86-64-v3
#
# A statically linked runtime makes every short command start faster (about 7 ms of CPU instead of about 15 ms
# spent loading and relocating some 20 shared libraries), which matters for scripts that call `lux` per file and
# for benchmarks against C tools. It is a choice of the build command, not of Package.swift: the manifest carries
# no unsafeFlags, so Lux stays usable as a versioned package dependency. The system libraries (libjpeg, libpng,
# zlib, …) stay shared; see NOTICE for what linking them means for the licence of the binary.
#
# The binary is .build/release/lux.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build -c release --product lux --static-swift-stdlib "$@"

binary=.build/release/lux
"$binary" --version
# A real command through the codecs: render a small scene to PNG and read its header back.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
"$binary" scene render still-life --width 64 -o "$scratch/still-life.png"
"$binary" info "$scratch/still-life.png"
# A RAW + JPEG capture with a Display P3 preview: its preview conversion is where Swift 6.3's release-only
# miscompile (swiftlang/swift#90477) trapped, and the scan below looks for any other place it could.
"$binary" capture --raw-plus jpeg --color-space p3 --preview 160x160 -o "$scratch/capture" >/dev/null
Scripts/check-swifterror-tailcalls.py "$binary"
# The Swift runtime and Foundation must not be shared libraries of the binary.
if ldd "$binary" | grep -E 'libswiftCore|libFoundation' >/dev/null; then
    echo "release.sh: $binary still links the Swift runtime dynamically:" >&2
    ldd "$binary" >&2
    exit 1
fi
echo "release.sh: $binary ($(du -h "$binary" | cut -f1)), Swift runtime and Foundation linked statically"
