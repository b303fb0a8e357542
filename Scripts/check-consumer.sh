#!/usr/bin/env bash
# Checks that Lux works as a versioned package dependency: another package depends on a tagged release of this
# tree through `.package(url:from:)`, builds against the `Lux` product and runs.
#
#   Scripts/check-consumer.sh
#
# The current working tree (tracked files and new files not ignored, committed or not) becomes a local git
# repository tagged 1.0.0; a small consumer package in a temporary folder resolves it by its file:// URL, builds
# (debug), and runs a program that converts a colour, renders a generated image to PNG and reads it back, checking
# the results. SwiftPM refuses a versioned dependency whose manifest uses unsafeFlags, so this also guards that.
# Other packages (swift-numerics, swift-log, …) resolve as for the package itself. Exits non-zero on any failure.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/lux-consumer.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# The tree as a release: a fresh repository with one commit and a semantic-version tag.
repo="$work/lux-repo"
mkdir -p "$repo"
(
    cd "$root"
    git ls-files -z --cached --others --exclude-standard |
        while IFS= read -r -d '' path; do [[ -e "$path" ]] && printf '%s\0' "$path"; done |
        tar --null --files-from=- -cf -
) | tar -xf - -C "$repo"
git -C "$repo" init -q
git -C "$repo" add -A
git -C "$repo" -c user.name="check-consumer" -c user.email="check-consumer@localhost" \
    commit -q -m "Lux working tree for the consumer check"
git -C "$repo" tag 1.0.0

# The consumer: depends on the tag, uses the umbrella product.
consumer="$work/consumer"
mkdir -p "$consumer/Sources/LuxConsumer"
cat >"$consumer/Package.swift" <<EOF
// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "LuxConsumer",
    platforms: [.macOS(.v15)],
    dependencies: [.package(url: "file://$repo", from: "1.0.0")],
    targets: [
        .executableTarget(name: "LuxConsumer", dependencies: [.product(name: "Lux", package: "lux-repo")])
    ]
)
EOF
cat >"$consumer/Sources/LuxConsumer/main.swift" <<'EOF'
import Foundation
import Lux

struct CheckFailed: Error, CustomStringConvertible {
    let description: String
}

// sRGB red in Display P3: (0.9175, 0.2003, 0.1386), from the two spaces' published primaries and D65 white.
let red = try ColorConverter(from: .sRGB, to: .displayP3).convert(SIMD3<Double>(1, 0, 0))
guard abs(red.x - 0.9175) < 5e-4, abs(red.y - 0.2003) < 5e-4, abs(red.z - 0.1386) < 5e-4 else {
    throw CheckFailed(description: "sRGB red in Display P3 is \(red), expected (0.9175, 0.2003, 0.1386)")
}

// A generated black-and-white checkerboard of 4-pixel squares, rendered to a 16×8 PNG and read back.
let url = URL(fileURLWithPath: CommandLine.arguments[1])
let board = Image.checkerboard(color0: .white, color1: .black, width: 4).cropped(to: Rect(width: 16, height: 8))
try RenderContext().write(board, to: url)
let file = try ImageFile.read(url: url)
let pixels = file.pixels.converted(to: .rgba8)
guard file.format == .png, pixels.width == 16, pixels.height == 8 else {
    throw CheckFailed(description: "read back \(file.format) \(pixels.width)×\(pixels.height), expected PNG 16×8")
}
// Every pixel is black or white, and neighbouring squares (4 pixels apart, across or down) differ.
let values = pixels.withUnsafePlane { plane in
    (0..<8).map { y in (0..<16).map { x in plane.row(y, as: UInt8.self)[4 * x] } }
}
for y in 0..<8 {
    for x in 0..<16 {
        let v = values[y][x]
        guard v == 0 || v == 255 else { throw CheckFailed(description: "pixel (\(x), \(y)) is \(v), not 0 or 255") }
        guard (x < 4 || values[y][x - 4] != v), (y < 4 || values[y - 4][x] != v) else {
            throw CheckFailed(description: "pixel (\(x), \(y)) has its neighbouring square's value \(v)")
        }
    }
}
print("Lux as a dependency: sRGB red in P3 \(red), \(pixels.width)×\(pixels.height) checkerboard PNG read back")
EOF

cd "$consumer"
swift build
swift run LuxConsumer "$work/board.png"
echo "check-consumer: a package depending on Lux 1.0.0 (file://…/lux-repo) builds and runs"
