// swift-tools-version:6.0
// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import PackageDescription

/// Whether the GTK 4 view layer (KingfisherGTK, its example and tests) is part of the build:
/// when GTK 4's development files are installed (its pkg-config file is found), unless
/// KINGFISHER_GTK says `1` or `0`. Without GTK the other products build and test as before.
/// SwiftPM caches this manifest's result per environment, so after installing GTK in a
/// checkout that was built without it, build once with KINGFISHER_GTK=1 (the scripts do).
let withGTK: Bool = {
    switch Context.environment["KINGFISHER_GTK"] {
    case "1": return true
    case "0": return false
    default: break
    }
    let searchPath =
        (Context.environment["PKG_CONFIG_PATH"] ?? "").split(separator: ":").map(String.init) + [
            "/usr/lib/x86_64-linux-gnu/pkgconfig", "/usr/lib/aarch64-linux-gnu/pkgconfig", "/usr/lib/pkgconfig",
            "/usr/share/pkgconfig", "/usr/local/lib/pkgconfig",
        ]
    return searchPath.contains { FileManager.default.fileExists(atPath: $0 + "/gtk4.pc") }
}()

let package = Package(
    name: "Kingfisher",
    products: [
        .library(name: "Kingfisher", targets: ["Kingfisher"]),
        .library(name: "KingfisherImaging", targets: ["KingfisherImaging"]),
        .library(name: "KingfisherRedis", targets: ["KingfisherRedis"]),
        .library(name: "KingfisherServer", targets: ["KingfisherServer"]),
        .executable(name: "kf", targets: ["kf"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        // `swift package generate-documentation --target Kingfisher` builds the DocC catalogue.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CTurboJPEG",
            pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]
        ),
        .systemLibrary(
            name: "CSpng",
            pkgConfig: "spng",
            providers: [.apt(["libspng-dev"])]
        ),
        .systemLibrary(
            name: "CDeflate",
            pkgConfig: "libdeflate",
            providers: [.apt(["libdeflate-dev"])]
        ),
        .systemLibrary(name: "CLibFuzzer"),
        .systemLibrary(
            name: "CLCMS2",
            pkgConfig: "lcms2",
            providers: [.apt(["liblcms2-dev"])]
        ),
        .systemLibrary(
            name: "CGif",
            providers: [.apt(["libgif-dev"])]
        ),
        .systemLibrary(
            name: "CWebP",
            pkgConfig: "libwebp",
            providers: [.apt(["libwebp-dev"])]
        ),
        .systemLibrary(
            name: "CTiff",
            pkgConfig: "libtiff-4",
            providers: [.apt(["libtiff-dev"])]
        ),
        // libheif, libavif and libjxl are not linked: CCodecLoader opens them on first use. No
        // pkgConfig (it would link them; libavif's and libjxl's .pc files also add -D flags,
        // AVIF_DLL and HWY_SHARED_DEFINE, that SwiftPM refuses): the headers are in /usr/include.
        .systemLibrary(
            name: "CHeif",
            providers: [.apt(["libheif-dev"])]
        ),
        .systemLibrary(
            name: "CAvif",
            providers: [.apt(["libavif-dev"])]
        ),
        .systemLibrary(
            name: "CJxl",
            providers: [.apt(["libjxl-dev"])]
        ),
        // Pixels only: no networking package may be added here, so that an app with its own
        // HTTP client can depend on this product alone (Examples/ImagingOnly, built by scripts/check-imaging-only.sh, checks it).
        .target(name: "CCodecLoader"),
        // librsvg is opened on first use too, and declared in the target itself: no development
        // package is needed to build, and GLib's and cairo's headers stay out of Swift.
        .target(name: "CSVGRenderer"),
        // libcurl, opened when FoundationNetworking first calls it: linked into the executables
        // only (a library must not define another library's functions in its users' processes).
        // scripts/build-release.sh drops -lcurl from the static link, which saves kf ~7 ms a start.
        .target(name: "CLazyCurl"),
        .target(
            name: "KingfisherImaging",
            dependencies: [
                "CTurboJPEG", "CSpng", "CDeflate", "CGif", "CWebP", "CLCMS2", "CTiff", "CHeif", "CAvif", "CJxl", "CCodecLoader",
                "CSVGRenderer",
            ]
        ),
        .target(
            name: "Kingfisher",
            dependencies: [
                "KingfisherImaging",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // Redis as a cache tier with cluster-wide fetch leases: its own product, so that an app
        // importing Kingfisher compiles none of it.
        .target(
            name: "KingfisherRedis",
            dependencies: [
                "Kingfisher",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // The image service (`kf serve`): Hummingbird routes on top of the library's manager,
        // caches, downloader and processors.
        .target(
            name: "KingfisherServer",
            dependencies: [
                "Kingfisher",
                "KingfisherRedis",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            // The playground page: static files the service's file middleware serves.
            resources: [.copy("Playground")]
        ),
        .executableTarget(
            name: "kf",
            dependencies: [
                "Kingfisher",
                "KingfisherServer",
                "CLazyCurl",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "kf-bench",
            dependencies: [
                "Kingfisher",
                "CLazyCurl",
                "KingfisherRedis",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Benchmarks/KingfisherBenchmark"
        ),
        .target(
            name: "KingfisherFuzzTargets",
            dependencies: ["Kingfisher", "KingfisherImaging"]
        ),
        .executableTarget(
            name: "kf-fuzz",
            dependencies: ["KingfisherFuzzTargets", "CLibFuzzer"]
        ),
        .executableTarget(
            name: "KingfisherCacheStress",
            dependencies: ["Kingfisher"],
            path: "Tests/KingfisherCacheStress"
        ),
        // What the test targets share: the loopback HTTP, TLS, Redis and proxy servers they
        // start, the image service harness, fixtures and builders, controllable clocks and
        // transports (fixtures themselves live in Tests/Fixtures). A test target, so that it is
        // built only with the tests, where the modules it imports with @testable are testable.
        .testTarget(
            name: "KingfisherTestKit",
            dependencies: [
                "Kingfisher",
                "KingfisherImaging",
                "KingfisherRedis",
                "KingfisherServer",
                "CDeflate",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
            ],
            path: "Tests/KingfisherTestKit"
        ),
        .testTarget(
            name: "KingfisherImagingTests",
            dependencies: ["KingfisherImaging", "Kingfisher", "KingfisherFuzzTargets", "KingfisherTestKit", "CLCMS2"]
        ),
        .testTarget(
            name: "KingfisherTests",
            dependencies: [
                "Kingfisher",
                "KingfisherTestKit",
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .testTarget(
            name: "KingfisherRedisTests",
            dependencies: [
                "KingfisherRedis",
                "KingfisherTestKit",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "KingfisherServerTests",
            dependencies: ["KingfisherServer", "KingfisherRedis", "KingfisherTestKit"]
        ),
        .testTarget(
            name: "KFTests",
            dependencies: [
                "kf",
                "CLazyCurl",
                "KingfisherServer",
                "KingfisherTestKit",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

if withGTK {
    package.products += [
        .library(name: "KingfisherGTK", targets: ["KingfisherGTK"]),
        .executable(name: "gtk-gallery", targets: ["gtk-gallery"]),
    ]
    package.targets += [
        .systemLibrary(
            name: "CGtk",
            pkgConfig: "gtk4",
            providers: [.apt(["libgtk-4-dev"])]
        ),
        // GLib's type system and GTK's casting macros, which Swift cannot reach.
        .target(name: "CKingfisherGTK", dependencies: ["CGtk"]),
        // Kingfisher's view layer on GTK 4: its own product, so that no other product compiles GTK.
        .target(name: "KingfisherGTK", dependencies: ["Kingfisher", "CGtk", "CKingfisherGTK"]),
        // The example application; Examples/GTKGallery is its package for users, this target
        // builds the same sources with the tests, which drive it under Xvfb.
        .executableTarget(
            name: "gtk-gallery",
            dependencies: ["KingfisherGTK"],
            path: "Examples/GTKGallery/Sources/gtk-gallery"
        ),
        // Scenarios the GTK tests run in a real application under Xvfb.
        .executableTarget(
            name: "KingfisherGTKProbe",
            dependencies: ["KingfisherGTK"],
            path: "Tests/KingfisherGTKProbe"
        ),
        // Drives gtk-gallery and the probe under Xvfb against a loopback origin, and checks the
        // pixels of their windows.
        .testTarget(
            name: "KingfisherGTKTests",
            dependencies: ["KingfisherImaging", "KingfisherTestKit"]
        ),
    ]
}
