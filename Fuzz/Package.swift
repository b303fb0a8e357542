// swift-tools-version:6.1
import PackageDescription

// libFuzzer harnesses for Lux's parsers (one executable per parser). Build and run one with
// `Fuzz/run.sh NAME SECONDS`; the script passes `-sanitize=fuzzer,address` to every Swift module (so Lux's
// own modules get coverage instrumentation), `-enable-testing` so harnesses can reach internal decoders, and
// `-parse-as-library` (harnesses have no top-level code). Build options belong to that command, not to this
// manifest (no unsafeFlags). SwiftPM links an executable with its entry point renamed to `<module>_main` (for
// example `fuzz_tiff_main`); each harness defines that function with `@_cdecl` and hands its input callback to
// libFuzzer's `LLVMFuzzerRunDriver`.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let harnesses = [
    "tiff", "dngopcode", "ljpeg", "jpeg", "png", "icc", "exif", "filterchain", "quicktime", "adjustments",
    "cameraraw", "heif", "movie", "webp", "gif",
]
// Modules beyond the common ones a harness needs (LuxLive brings capture-independent Live Photo editing).
let extraDependencies: [String: [String]] = ["adjustments": ["LuxLive", "LuxFusion"]]

let package = Package(
    name: "LuxFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Lux", path: "..")],
    targets: [
        .target(name: "CFuzzDriver"),
        .target(
            name: "FuzzSupport",
            dependencies: [
                "CFuzzDriver",
                .product(name: "LuxCodecs", package: "Lux"), .product(name: "LuxColor", package: "Lux"),
                .product(name: "LuxPixels", package: "Lux"), .product(name: "LuxRender", package: "Lux"),
            ],
            swiftSettings: swiftSettings),
    ]
        + harnesses.map { name in
            .executableTarget(
                name: "fuzz-\(name)",
                dependencies: [
                    "FuzzSupport",
                    .product(name: "LuxCodecs", package: "Lux"),
                    .product(name: "LuxColor", package: "Lux"),
                    .product(name: "LuxPixels", package: "Lux"),
                    .product(name: "LuxRender", package: "Lux"),
                    .product(name: "LuxFilters", package: "Lux"),
                ] + (extraDependencies[name] ?? []).map { .product(name: $0, package: "Lux") },
                path: "Harnesses/\(name)",
                swiftSettings: swiftSettings)
        }
)
