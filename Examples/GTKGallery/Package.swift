// swift-tools-version:6.0
// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

// A GTK 4 app showing a scrolling grid of remote images with KingfisherGTK: `swift run gtk-gallery`
// (see Sources/KingfisherGTK/KingfisherGTK.docc/ShowingImagesInAGTKApp.md). It needs GTK 4's
// development files (Debian's libgtk-4-dev). The repository's own package builds the same
// sources as its `gtk-gallery` target, which the test suite drives under Xvfb.
import Foundation
import PackageDescription

// This repository, two levels up. A local package's identity is its directory's name, which
// depends on where the repository was cloned.
let kingfisher = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()

let package = Package(
    name: "GTKGallery",
    dependencies: [
        .package(path: kingfisher.path)
    ],
    targets: [
        .executableTarget(
            name: "gtk-gallery",
            dependencies: [
                .product(name: "Kingfisher", package: kingfisher.lastPathComponent),
                .product(name: "KingfisherGTK", package: kingfisher.lastPathComponent),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
