// swift-tools-version:6.0
// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

// An app that has its own HTTP client (Vapor, Hummingbird) and only needs pixels: it depends on
// the KingfisherImaging product alone, and so builds none of Kingfisher's networking packages.
// scripts/check-imaging-only.sh builds it and checks exactly that.
import Foundation
import PackageDescription

// This repository, two levels up. A local package's identity is its directory's name, which
// depends on where the repository was cloned.
let kingfisher = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()

let package = Package(
    name: "ImagingOnly",
    dependencies: [
        .package(path: kingfisher.path)
    ],
    targets: [
        .executableTarget(
            name: "ImagingOnly",
            dependencies: [.product(name: "KingfisherImaging", package: kingfisher.lastPathComponent)]
        )
    ],
    swiftLanguageModes: [.v6]
)
