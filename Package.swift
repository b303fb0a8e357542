// swift-tools-version:6.1
import PackageDescription

// The layering of the README's "Layout" section: every target depends only on targets below it, and lists exactly
// the modules its sources import (Scripts/check-dependencies.py checks both directions). No unsafeFlags: build
// options such as a static Swift runtime belong to the build command (Scripts/release.sh), so Lux stays usable as
// a versioned dependency.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
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
        .library(name: "LuxIO", targets: ["LuxIO"]),
        .library(name: "LuxRAW", targets: ["LuxRAW"]),
        .library(name: "LuxFusion", targets: ["LuxFusion"]),
        .library(name: "LuxScene", targets: ["LuxScene"]),
        .library(name: "LuxCapture", targets: ["LuxCapture"]),
        .library(name: "LuxLive", targets: ["LuxLive"]),
        .library(name: "LuxInfo", targets: ["LuxInfo"]),
        .executable(name: "lux", targets: ["lux"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        // Only LuxStudio, the `lux` executable and their tests may use the web server.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        // The server's services (Hummingbird runs on it): the studio stops its camera session as one of them.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.6.0"),
    ],
    targets: [
        // System libraries (pkg-config names as on Debian 12).
        .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg62-turbo-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CHEIF", pkgConfig: "libheif", providers: [.apt(["libheif-dev"])]),
        .systemLibrary(name: "CX265", pkgConfig: "x265", providers: [.apt(["libx265-dev"])]),
        // libwebp: the WebP codec, its container's chunks (libwebpdemux) and assembling containers and animations
        // (libwebpmux, whose pkg-config file requires libwebp; the module map links all three).
        .systemLibrary(name: "CWebP", pkgConfig: "libwebpmux", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CGIF", pkgConfig: "libgif", providers: [.apt(["libgif-dev"])]),
        // LibRaw's thread-safe build (libraw_r), the decoder of camera raws other than DNG.
        .systemLibrary(name: "CLibRaw", pkgConfig: "libraw_r", providers: [.apt(["libraw-dev"])]),
        .systemLibrary(name: "CZXing", pkgConfig: "zxing", providers: [.apt(["libzxing-dev"])]),
        // Little CMS 2: the ICC profiles LuxColor's matrix/TRC engine does not handle (LUT-based, CMYK) and intents.
        .systemLibrary(name: "CLCMS2", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),
        // Runtime-dispatched F16C/AVX2 row kernels (DESIGN.md "CPU features"), and nothing else.
        .target(name: "CLuxKernels"),
        // The operating-system calls Swift cannot make directly: processor count, ioctl(2), glibc's mallopt.
        .target(name: "CLuxSystem"),
        // libjpeg/libpng/zlib entry points with setjmp/longjmp kept inside C (SWIFT-STYLE.md §3), and x265's
        // configuration for HEVC grid tiles.
        .target(name: "CLuxCodecShims", dependencies: ["CJPEG", "CPNG", "CZlib", "CX265"]),
        // FFmpeg's libraries (5.1): demuxing and decoding movies, H.264/HEVC/AAC encoding, Y′CbCr ↔ RGB conversion.
        // Headers only (Debian's libavcodec-dev, libavformat-dev, libavutil-dev, libswscale-dev install them where
        // the compiler looks): the libraries are not linked but loaded on first use by CLuxMediaShims, so a command
        // that never touches a movie does not map FFmpeg and the ~130 libraries it depends on. Linking them through
        // pkg-config would add them to every executable that uses LuxCodecs.
        .systemLibrary(name: "CAVUtil"),
        .systemLibrary(name: "CAVCodec"),
        .systemLibrary(name: "CAVFormat"),
        .systemLibrary(name: "CSWScale"),
        // FFmpeg loaded on first use (its function table), its error macros and its log callback (a va_list).
        .target(
            name: "CLuxMediaShims", dependencies: ["CAVUtil", "CAVCodec", "CAVFormat", "CSWScale", "CLuxKernels"],
            linkerSettings: [.linkedLibrary("dl")]),
        // LibRaw's identify, unpack and thumbnail behind a flat C interface (one LibRaw instance per decode).
        .target(name: "CLuxLibRaw", dependencies: ["CLibRaw"]),
        // zxing-cpp's reader and writer behind a C interface (its API is C++), for LuxCodecs' CodeReader/CodeWriter.
        .target(name: "CLuxZXing", dependencies: ["CZXing"], cxxSettings: [.define("ZX_USE_UTF8")]),

        .target(
            name: "LuxColor",
            dependencies: ["CLuxKernels", "CLCMS2", .product(name: "RealModule", package: "swift-numerics")],
            swiftSettings: swiftSettings),
        .target(
            name: "LuxPixels",
            dependencies: [
                "LuxColor", "CLuxKernels", "CLuxSystem", .product(name: "RealModule", package: "swift-numerics"),
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "LuxRender",
            dependencies: [
                "LuxPixels", "LuxColor", "CLuxKernels", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "LuxFilters",
            dependencies: [
                "LuxRender", "LuxCodecs", "LuxPixels", "LuxColor", "CLuxKernels",
                .product(name: "RealModule", package: "swift-numerics"),
            ],
            exclude: ["CATALOG.md"],
            swiftSettings: swiftSettings),
        .target(
            name: "LuxCodecs",
            dependencies: [
                "LuxPixels", "LuxColor", "CLuxCodecShims", "CLuxKernels", "CLuxLibRaw", "CLuxZXing", "CHEIF",
                "CLuxMediaShims", "CAVFormat", "CAVCodec", "CAVUtil", "CSWScale",
                "CWebP",
                "CGIF",
            ],
            swiftSettings: swiftSettings),
        // File glue between the engine and the codecs: images read from files, renders streamed into encoders.
        .target(
            name: "LuxIO",
            dependencies: ["LuxFilters", "LuxRender", "LuxCodecs", "LuxPixels", "LuxColor"],
            swiftSettings: swiftSettings),
        .target(
            name: "LuxRAW",
            dependencies: [
                "LuxRender", "LuxCodecs", "LuxPixels", "LuxColor", "CLuxKernels",
                .product(name: "RealModule", package: "swift-numerics"),
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "LuxFusion",
            dependencies: [
                "LuxRAW", "LuxRender", "LuxCodecs", "LuxPixels", "LuxColor", "CLuxKernels",
                .product(name: "RealModule", package: "swift-numerics"),
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "LuxScene",
            dependencies: [
                "LuxPixels", "LuxColor", "CLuxKernels", .product(name: "RealModule", package: "swift-numerics"),
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "LuxCapture",
            dependencies: [
                "LuxScene", "LuxFusion", "LuxRAW", "LuxIO", "LuxFilters", "LuxCodecs", "LuxRender", "LuxPixels",
                "LuxColor",
                "CLuxKernels", "CLuxSystem",
                .product(name: "RealModule", package: "swift-numerics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            // The photographs of the built-in photographic scenes (licences in their SOURCES.md).
            resources: [.copy("Resources/Photographs")],
            swiftSettings: swiftSettings),
        .target(
            name: "LuxLive",
            dependencies: ["LuxFusion", "LuxFilters", "LuxIO", "LuxCodecs", "LuxRender", "LuxPixels", "LuxColor"],
            swiftSettings: swiftSettings),
        // What a file holds, from its headers: the report `lux info` prints and the studio's metadata panel shows.
        .target(
            name: "LuxInfo", dependencies: ["LuxLive", "LuxCodecs", "LuxPixels", "LuxColor"],
            swiftSettings: swiftSettings),
        .target(
            name: "Lux",
            dependencies: [
                "LuxColor", "LuxPixels", "LuxRender", "LuxFilters", "LuxCodecs", "LuxIO", "LuxRAW", "LuxFusion",
                "LuxScene", "LuxCapture", "LuxLive", "LuxInfo",
            ],
            swiftSettings: swiftSettings),
        // `lux studio`: the local web app (HTTP + WebSocket on loopback) over the libraries; its front end is
        // embedded as generated Swift data (FrontEnd+Files.swift, regenerated by Scripts/embed-studio.py and
        // compared by a test), so the one static `lux` binary carries it.
        .target(
            name: "LuxStudio",
            dependencies: [
                "LuxInfo", "LuxCapture", "LuxFusion", "LuxLive", "LuxScene", "LuxIO", "LuxRAW", "LuxFilters",
                "LuxRender",
                "LuxCodecs", "LuxPixels", "LuxColor",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            exclude: ["FrontEnd"],
            swiftSettings: swiftSettings),
        // Camera-sized raw inputs made from the committed samples, shared by `lux bench` and the tests.
        .target(
            name: "LuxBenchInputs", dependencies: ["LuxCodecs", "LuxPixels"], path: "Benchmarks/Inputs",
            swiftSettings: swiftSettings),
        .executableTarget(
            name: "lux",
            dependencies: [
                "Lux", "LuxStudio", "LuxPixels", "CLuxKernels", "CLuxSystem", "LuxBenchInputs",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings),

        // Tests: one target per library target (added as each module lands), plus shared helpers.
        .target(
            name: "LuxTestSupport",
            dependencies: ["LuxBenchInputs", "LuxCodecs", "LuxPixels", "LuxColor", "CLuxKernels"],
            path: "Tests/LuxTestSupport",
            swiftSettings: swiftSettings),
        .testTarget(name: "LuxColorTests", dependencies: ["LuxColor", "LuxTestSupport"], swiftSettings: swiftSettings),
        .testTarget(
            name: "LuxPixelsTests", dependencies: ["LuxPixels", "LuxColor", "LuxTestSupport", "CLuxKernels"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "LuxRenderTests",
            dependencies: ["LuxRender", "LuxPixels", "LuxColor", "LuxTestSupport", "CLuxKernels"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "LuxFiltersTests",
            dependencies: ["LuxFilters", "LuxRender", "LuxCodecs", "LuxPixels", "LuxColor", "LuxTestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "LuxCodecsTests",
            dependencies: [
                "LuxCodecs", "LuxPixels", "LuxColor", "LuxTestSupport", "CLuxKernels", "CLuxMediaShims",
            ],
            resources: [.copy("Resources/FuzzRegressions")], swiftSettings: swiftSettings),
        .testTarget(
            name: "LuxCaptureTests",
            dependencies: [
                "LuxCapture", "LuxScene", "LuxCodecs", "LuxPixels", "LuxColor", "LuxTestSupport", "CLuxKernels",
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
                "LuxRAW", "LuxIO", "LuxRender", "LuxCodecs", "LuxPixels", "LuxColor", "LuxTestSupport", "CLuxKernels",
                .product(name: "RealModule", package: "swift-numerics"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "LuxSceneTests",
            dependencies: [
                "LuxScene", "LuxPixels", "LuxColor", .product(name: "RealModule", package: "swift-numerics"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "DocSnippetsTests", dependencies: ["Lux", "LuxTestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "LuxCLITests",
            dependencies: [
                "lux", "Lux", "LuxCodecs", "LuxPixels", "LuxTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "LuxStudioTests",
            dependencies: [
                "LuxStudio", "LuxCapture", "LuxCodecs", "LuxColor", "LuxLive", "LuxPixels", "LuxScene",
                "LuxTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "LuxFusionTests",
            dependencies: ["LuxFusion", "LuxRender", "LuxPixels", "LuxColor", "LuxTestSupport", "CLuxKernels"],
            swiftSettings: swiftSettings),
    ],
    cxxLanguageStandard: .cxx17
)
