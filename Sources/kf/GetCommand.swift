// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import ArgumentParser
import Foundation
import Kingfisher

/// `kf get SOURCE`: one KingfisherManager retrieval, saying where the image came from.
struct GetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Fetch an image through the cache (memory, disk, then the source), processed and cached as Kingfisher does.",
        discussion: """
            SOURCE is an http(s) URL, a file path, or a data: URL with base64 content. Prints where \
            the image came from (none: loaded from the source; disk: the disk cache), its size, \
            format and the time taken. Exits 65 for data that is not a usable image, 66 for a miss \
            with --only-from-cache, 69 for network failures.
            """
    )

    @Argument(help: "An http(s) URL, a file path, or a data: URL.")
    var source: String

    @OptionGroup var retrieval: RetrievalOptions

    @Flag(help: "Never load: fail when the image is not cached.")
    var onlyFromCache = false

    @Option(help: "A source to try when the first fails (repeatable, in order).")
    var alternative: [String] = []

    @Option(
        name: .shortAndLong,
        help: "Also write the image here (format from the extension: \(ProcessCommand.outputFormatNames)), atomically.")
    var output: String?

    @Flag(help: "Print JSON with the keys cacheType, width, height, format, bytes, dataFormat, ms.")
    var json = false

    func validate() throws {
        if let output, ProcessCommand.outputFormat(named: (output as NSString).pathExtension) == nil {
            throw ValidationError("unknown output format for '\(output)': use one of \(ProcessCommand.outputFormatNames)")
        }
    }

    /// What `kf get` prints.
    struct Report: Encodable {
        var cacheType: String
        var width: Int
        var height: Int
        /// The format the image was decoded from (processors keep it).
        var format: String
        /// The size of the result's data: the downloaded body, or what the serializer stores.
        var bytes: Int
        /// The format of that data, which differs from `format` when a processed image is
        /// stored in the serializer's format.
        var dataFormat: String
        var ms: Double
    }

    func run() async throws {
        let cache = retrieval.openCache()
        var options = try retrieval.options(cache: cache)
        if onlyFromCache { options.append(.onlyFromCache) }
        if !alternative.isEmpty { options.append(.alternativeSources(alternative.map(imageSource(from:)))) }
        let start = ContinuousClock.now
        let result: RetrieveImageResult
        do {
            result = try await KingfisherManager(downloader: .default, cache: cache).retrieveImage(
                with: imageSource(from: source),
                options: options)
        } catch let error as KingfisherError {
            exitWithError(failureLine(error, source: source), status: exitStatus(for: error))
        }
        let ms = (ContinuousClock.now - start).seconds * 1000
        let image = result.image
        if let output {
            let format = ProcessCommand.outputFormat(named: (output as NSString).pathExtension) ?? .PNG
            do {
                writeOutput(try image.encoded(as: format, compressionQuality: 0.9), to: output)
            } catch {
                exitWithError("\(output): \(error)", status: ExitStatus.cannotCreate)
            }
        }
        let data = result.data()
        let report = Report(
            cacheType: Self.name(of: result.cacheType), width: image.pixelWidth, height: image.pixelHeight,
            format: Self.name(of: image.format), bytes: data?.count ?? 0,
            dataFormat: Self.name(of: data?.kf.imageFileFormat ?? .unknown), ms: (ms * 10).rounded() / 10)
        if json {
            try printJSON(report)
        } else {
            print(
                "\(report.cacheType)  \(report.width)x\(report.height)  from \(report.format)  \(report.bytes) bytes of \(report.dataFormat)  \(report.ms) ms"
            )
        }
    }

    static func name(of format: ImageFileFormat) -> String {
        format == .unknown ? "unknown" : "\(format)"
    }

    static func name(of cacheType: CacheType) -> String {
        switch cacheType {
        case .none: return "none"
        case .memory: return "memory"
        case .disk: return "disk"
        }
    }
}
