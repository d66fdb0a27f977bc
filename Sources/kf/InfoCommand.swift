// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import ArgumentParser
import Foundation
import Kingfisher

/// `kf info FILE [--json]`.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print an image's format, size, frames, durations, loop count, alpha, EXIF orientation and colour space.",
        discussion: "Only the file's headers are read (an animation's frame headers included): no pixel is decoded."
    )

    @Argument(help: "The image file.")
    var file: String

    @Flag(
        help: "Print JSON with the keys format, width, height, frames, durations, loopCount, hasAlpha, orientation, colorSpace.")
    var json = false

    @Option(help: "Refuse images with more pixels than this per frame.")
    var maxPixels: Int = ImageCreatingOptions.defaultMaxPixelCount

    /// What `kf info --json` prints.
    struct Report: Encodable {
        var format: String
        var width: Int
        var height: Int
        var frames: Int
        var durations: [Double]
        var loopCount: Int
        var hasAlpha: Bool
        var orientation: Int
        var colorSpace: String
    }

    func run() throws {
        let data = readInput(file)
        let properties: ImageProperties
        do {
            properties = try ImageProperties(data: data, options: ImageCreatingOptions(maxPixelCount: maxPixels))
        } catch {
            exitWithError("\(file): \(error)", status: ExitStatus.refusedInput)
        }
        let report = Report(
            format: properties.format.description, width: properties.pixelWidth, height: properties.pixelHeight,
            frames: properties.frameCount, durations: properties.frameDurations, loopCount: properties.loopCount,
            hasAlpha: properties.hasAlpha, orientation: properties.exifOrientation, colorSpace: properties.colorSpace)
        if json {
            try printJSON(report)
        } else {
            print(
                """
                format:      \(report.format)
                size:        \(report.width)x\(report.height)
                frames:      \(report.frames)
                durations:   \(report.durations.map { String(format: "%.3f", $0) }.joined(separator: " "))
                loop count:  \(report.loopCount)\(report.frames > 1 && report.loopCount == 0 ? " (forever)" : "")
                alpha:       \(report.hasAlpha ? "yes" : "no")
                orientation: \(report.orientation)
                colour:      \(report.colorSpace)
                """)
        }
    }
}
