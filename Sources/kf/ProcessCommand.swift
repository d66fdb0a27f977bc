// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import ArgumentParser
import Foundation
import Kingfisher
import KingfisherServer

/// `kf process INPUT --output OUT [--processor SPEC] [--format F] [--quality Q] [--max-pixels N]
/// [--keep-color-profile]`.
struct ProcessCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "process",
        abstract: "Decode an image (upright), apply processors, and encode it.",
        discussion: ImageProcessorSpec.grammar + """

            Sizes are points at scale 1, so pixels. A leading downsample decodes straight to the \
            smallest size that covers it. Refused input exits with status 65 and leaves no output.
            """
    )

    @Argument(help: "The input image.")
    var input: String

    @Option(name: .shortAndLong, help: "The output file, written atomically.")
    var output: String

    @Option(help: "Processors to apply, e.g. 'downsample(400x400)'.")
    var processor: String?

    @Option(help: "Output format: \(ProcessCommand.outputFormatNames). Default: from the output file's extension.")
    var format: String?

    @Option(help: "Quality for JPEG, WebP and AVIF, 0...1. Default 0.9; WebP and AVIF at 1.0 are lossless.")
    var quality: Double = 0.9

    @Option(help: "Refuse images with more pixels than this per frame.")
    var maxPixels: Int = ImageCreatingOptions.defaultMaxPixelCount

    @Flag(help: "Keep the input's colour profile and embed it in the output, instead of converting to sRGB.")
    var keepColorProfile = false

    @Option(name: .customLong("watermark"), help: "A watermark image for watermark(NAME), as NAME=PATH (repeatable).")
    var watermarks: [String] = []

    @Option(name: .customLong("preset"), help: "A named processing chain for preset(NAME), as NAME=SPEC (repeatable).")
    var presets: [String] = []

    func validate() throws {
        guard (0...1).contains(quality) else { throw ValidationError("--quality must be between 0 and 1") }
        guard maxPixels > 0 else { throw ValidationError("--max-pixels must be positive") }
        _ = try imageProcessor()
        _ = try outputFormat()
    }

    /// The processor `--processor` names (the default processor without it). Bad specs are usage
    /// errors, found in `validate()` so the message shows this command's usage.
    private func imageProcessor() throws -> ImageProcessorChain {
        // The service's settings make the grammar, so both read watermarks and presets alike.
        var settings = ImageServerConfiguration()
        for (name, path) in watermarks.map(ServeCommand.namedValue) { settings.watermarks[name] = path }
        for (name, spec) in presets.map(ServeCommand.namedValue) { settings.presets[name] = spec }
        do {
            let grammar = try settings.grammar()
            return try processor.map { try grammar.processor(from: $0) } ?? ImageProcessorChain([])
        } catch {
            throw ValidationError("\(error)")
        }
    }

    private func outputFormat() throws -> ImageFileFormat {
        let name = format ?? (output as NSString).pathExtension
        guard let outputFormat = Self.outputFormat(named: name) else {
            throw ValidationError("unknown output format '\(name)': use \(Self.outputFormatNames)")
        }
        return outputFormat
    }

    func run() throws {
        let imageProcessor = try imageProcessor()
        let outputFormat = try outputFormat()
        let data = readInput(input)
        let encoded: Data
        do {
            let context = ImageProcessingContext(
                imageCreatingOptions: ImageCreatingOptions(maxPixelCount: maxPixels, preserveColorProfile: keepColorProfile))
            let image = try imageProcessor.withoutOutputControls.process(.data(data), in: context)
            // The spec's output steps (quality(N), lossless, …) win over --quality.
            let controls = imageProcessor.outputControls
            var options = controls.encodingOptions(defaultQuality: Int((quality * 100).rounded()), exif: controls.keptEXIF(of: data))
            options.lossless = controls.lossless || (quality >= 1 && controls.quality == nil)
            encoded =
                try controls.maxBytes.map { try image.encoded(as: outputFormat, options: options, maxBytes: $0).data }
                ?? image.encoded(as: outputFormat, options: options)
        } catch {
            exitWithError("\(input): \(String(describing: error).split(separator: "\n")[0])", status: ExitStatus.refusedInput)
        }
        writeOutput(encoded, to: output)
    }

    /// The format an extension or format name stands for, among those the library writes.
    static func outputFormat(named name: String) -> ImageFileFormat? {
        ImageFormatRegistry.shared.format(forFileExtension: name).flatMap { $0.isEncodable ? $0 : nil }
    }

    /// The names ``outputFormat(named:)`` knows, for messages: `png, jpg, gif, webp or avif`.
    static var outputFormatNames: String {
        let names = ImageFormatRegistry.shared.descriptors.filter(\.canEncode).compactMap(\.fileExtensions.first)
        return names.dropLast().joined(separator: ", ") + (names.count > 1 ? " or " : "") + (names.last ?? "")
    }
}
