// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher

extension ImageService {
    /// The JSON of `/info/{signature}/-/{source}` (``ImageInfo``): the source's format, size,
    /// frames, alpha, orientation and colour space, its EXIF summary (the position only with
    /// ``ImageServerConfiguration/infoGPS``), dominant colour and BlurHash; read from its
    /// original, cached or fetched as an image's is, within the same limits and slots.
    func info(forPath path: Substring) async throws(ServiceError) -> (json: Data, etag: String) {
        let source = try source(ofPath: path, prefix: ImageURLPath.infoPrefix)
        let version = try await sourceVersion(of: source)
        let slot = RequestSlot(slots)
        let account = pixelMemory.makeAccount()
        defer {
            account.close()
            slot.release()
        }
        do {
            // The decode the pipeline makes is the small one the colours are read from.
            let side = CGFloat(ImageInfo.sampleSize)
            let response = try await retrieve(
                source: source, version: version, processor: DownsamplingImageProcessor(size: CGSize(width: side, height: side)),
                slot: slot,
                pixelMemory: account, from: originalsPipeline)
            guard let original = response.originalData else {
                throw ServiceError(.internalServerError, "the original of \(source.absoluteString.prefix(300)) was not read")
            }
            let options = ImageCreatingOptions(maxPixelCount: configuration.maxSourcePixels, pixelMemory: account)
            let info = try ImageInfo(data: original, sample: response.image, options: options, includingGPS: configuration.infoGPS)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let json = try encoder.encode(info)
            return (json, ServedImage.etag(of: json))
        } catch let error as ServiceError {
            throw error
        } catch is CancellationError {
            throw ServiceError(.clientClosedRequest, "the client went away before the answer")
        } catch is WorkSlots.Full {
            throw lineFull()
        } catch {
            throw ServiceError(.unprocessableContent, "the information of \(source.absoluteString.prefix(300)) cannot be read: \(error)")
        }
    }
}
