// swift-tools-version:6.1
import PackageDescription

// The targets are layered: every target depends only on targets below it.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// The release `lux` executable links the Swift runtime and Foundation statically: a process then starts in
/// ~7 ms of CPU instead of ~15 ms spent loading and relocating 20 shared libraries, which every short command
/// (and every benchmark against a C tool) pays. `-static-stdlib` alone leaves Foundation's own static
/// dependencies unresolved with this toolchain, so they are named in a group. Only this executable carries
/// the flags: the library products stay usable as package dependencies, and debug builds link as before.
let staticRuntimeLinkerSettings: [LinkerSetting] = [
    .unsafeFlags(
        ["-static-stdlib"]
            + [
                "--start-group", "-lFoundation", "-lCoreFoundation", "-lFoundationInternationalization",
                "-lFoundationEssentials", "-l_FoundationICU", "-l_FoundationCShims", "-l_FoundationCollections",
                "--end-group", "-lstdc++",
            ].flatMap { ["-Xlinker", $0] },
        .when(platforms: [.linux], configuration: .release))
]

let package = Package(
    name: "Lux",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Lux", targets: ["Lux"]),
        .library(name: "LuxColor", targets: ["LuxColor"]),
        .library(name: "LuxPixels", targets: ["LuxPixels"]),
        .library(name: "LuxRender", targets: ["LuxRender"]),
        .library(name: "LuxFilters", targets: ["LuxFilters"]),
        .library(name: "LuxCodecs", targets: ["LuxCodecs"]),
        .library(name: "LuxRAW", targets: ["LuxRAW"]),
        .library(name: "LuxFusion", targets: ["LuxFusion"]),
        .library(name: "LuxScene", targets: ["LuxScene"]),
        .library(name: "LuxCapture", targets: ["LuxCapture"]),
        .library(name: "LuxLive", targets: ["LuxLive"]),
        .executable(name: "lux", targets: ["lux"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
    ],
    targets: [
        // System libraries (pkg-config names as on Debian 12).
        .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg62-turbo-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Runtime-dispatched F16C/AVX2 row kernels (DESIGN.md "CPU features").
        .target(name: "CLuxKernels"),
        // libjpeg/libpng/zlib entry points with setjmp/longjmp kept inside C (SWIFT-STYLE.md §3).
        .target(name: "CLuxCodecShims", dependencies: ["CJPEG", "CPNG", "CZlib"]),

        .target(
            name: "LuxColor",
            dependencies: ["CLuxKernels", .product(name: "RealModule", package: "swift-numerics")],
            swiftSettings: swiftSettings),
        .target(
            name: "LuxPixels",
            dependencies: ["LuxColor", "CLuxKernels", .product(name: "RealModule", package: "swift-numerics")],
            swiftSettings: swiftSettings),
        .target(
            name: "LuxRender",
            dependencies: [
                "LuxPixels", "LuxColor", "CLuxKernels",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "RealModule", package: "swift-numerics"),
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "LuxFilters",
            dependencies: [
                "LuxRender", "LuxPixels", "LuxColor", "CLuxKernels",
                .product(name: "RealModule", package: "swift-numerics"),
            ],
            exclude: ["CATALOG.md"],
            swiftSettings: swiftSettings),
        .target(
            name: "LuxCodecs",
            dependencies: ["LuxPixels", "LuxColor", "CLuxCodecShims", "CLuxKernels"],
            swiftSettings: swiftSettings),
        .target(
            name: "LuxRAW",
            dependencies: [
                "LuxFilters", "LuxRender", "LuxCodecs", "LuxPixels", "LuxColor", "CLuxKernels",
                .product(name: "RealModule", package: "swift-numerics"),
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "LuxFusion",
            dependencies: [
                "LuxRender", "LuxPixels", "LuxColor", "CLuxKernels",
                .product(name: "RealModule", package: "swift-numerics"),
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "LuxScene",
            dependencies: [
                "LuxRender", "LuxCodecs", "LuxPixels", "LuxColor", "CLuxKernels",
                .product(name: "RealModule", package: "swift-numerics"),
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "LuxCapture",
            dependencies: [
                "LuxScene", "LuxFusion", "LuxRAW", "LuxCodecs", "LuxRender", "LuxPixels", "LuxColor", "CLuxKernels",
                .product(name: "RealModule", package: "swift-numerics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "LuxLive",
            dependencies: [
                "LuxCapture", "LuxFusion", "LuxFilters", "LuxCodecs", "LuxRender", "LuxPixels", "LuxColor",
                .product(name: "RealModule", package: "swift-numerics"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings,
            linkerSettings: staticRuntimeLinkerSettings),
        .target(
            name: "Lux",
            dependencies: [
                "LuxColor", "LuxPixels", "LuxRender", "LuxFilters", "LuxCodecs", "LuxRAW", "LuxFusion",
                "LuxScene", "LuxCapture", "LuxLive",
            ],
            swiftSettings: swiftSettings),
        // Camera-sized raw inputs made from the committed samples, shared by `lux bench` and the tests.
        .target(
            name: "LuxBenchInputs", dependencies: ["LuxCodecs", "LuxPixels"], path: "Benchmarks/Inputs",
            swiftSettings: swiftSettings),
        .executableTarget(
            name: "lux",
            dependencies: [
                "Lux", "CLuxKernels", "LuxBenchInputs",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings),

        // Tests: one target per library target (added as each module lands), plus shared helpers.
        .target(
            name: "LuxTestSupport",
            dependencies: ["LuxBenchInputs", "LuxCodecs", "LuxPixels", "LuxColor"],
            path: "Tests/LuxTestSupport",
            swiftSettings: swiftSettings),
        .testTarget(name: "LuxColorTests", dependencies: ["LuxColor", "LuxTestSupport"], swiftSettings: swiftSettings),
        .testTarget(
            name: "LuxPixelsTests", dependencies: ["LuxPixels", "LuxTestSupport"], swiftSettings: swiftSettings),
        .testTarget(
            name: "LuxRenderTests", dependencies: ["LuxRender", "LuxTestSupport"], swiftSettings: swiftSettings),
        .testTarget(
            name: "LuxFiltersTests", dependencies: ["LuxFilters", "LuxRender", "LuxTestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "LuxCodecsTests", dependencies: ["LuxCodecs", "LuxTestSupport"],
            resources: [.copy("Resources/FuzzRegressions")], swiftSettings: swiftSettings),
        .testTarget(
            name: "LuxCaptureTests",
            dependencies: [
                "LuxCapture", "LuxScene", "LuxCodecs", "LuxPixels", "LuxColor", "LuxTestSupport",
                .product(name: "RealModule", package: "swift-numerics"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(name: "LuxTests", dependencies: ["Lux", "LuxTestSupport"], swiftSettings: swiftSettings),
        .testTarget(
            name: "LuxLiveTests",
            dependencies: [
                "LuxLive", "LuxCapture", "LuxScene", "LuxFusion", "LuxFilters", "LuxRender", "LuxCodecs", "LuxPixels",
                "LuxColor", "LuxTestSupport",
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "LuxRAWTests",
            dependencies: [
                "LuxRAW", "LuxRender", "LuxCodecs", "LuxPixels", "LuxColor", "LuxTestSupport",
                .product(name: "RealModule", package: "swift-numerics"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "LuxSceneTests",
            dependencies: [
                "LuxScene", "LuxPixels", "LuxColor", "LuxTestSupport",
                .product(name: "RealModule", package: "swift-numerics"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "DocSnippetsTests", dependencies: ["Lux", "LuxTestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "LuxCLITests", dependencies: ["LuxCodecs", "LuxTestSupport"], swiftSettings: swiftSettings),
        .testTarget(
            name: "LuxFusionTests",
            dependencies: ["LuxFusion", "LuxRender", "LuxPixels", "LuxColor", "LuxTestSupport"],
            swiftSettings: swiftSettings),
    ]
)
