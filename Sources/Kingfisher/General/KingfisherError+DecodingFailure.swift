// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

extension KingfisherError {
    /// Why data did not become an image, carried where Kingfisher reports it: as the processor
    /// of `processorError(.processingFailed(processor:item:))`.
    ///
    /// Kingfisher's ImageIO only says that decoding gave no image; this says which format, what
    /// was wrong and, for a download, where the bytes came from. It stands in for the processor
    /// the caller used: its ``identifier`` is that processor's, and processing forwards to it,
    /// so code comparing processors by identifier sees no difference.
    public struct DecodingFailure: ImageProcessor, CustomStringConvertible {
        /// The processor the caller asked for.
        public let processor: any ImageProcessor
        /// What the decoder said: the format, and what was wrong with the data.
        public let reason: ImageCodingError
        /// The URL the data was downloaded from; `nil` for cached or provided data.
        public let url: URL?
        /// The response's `Content-Type`, for a download that had one.
        public let contentType: String?

        /// Creates a failure of `processor` for `reason`.
        public init(processor: any ImageProcessor, reason: ImageCodingError, url: URL? = nil, contentType: String? = nil) {
            self.processor = processor
            self.reason = reason
            self.url = url
            self.contentType = contentType
        }

        /// The caller's processor's identifier.
        public var identifier: String { processor.identifier }

        /// The caller's processor's work.
        public func process(item: ImageProcessItem, options: KingfisherParsedOptionsInfo) -> KFCrossPlatformImage? {
            processor.process(item: item, options: options)
        }

        /// One line: the source when known, then the decoder's reason.
        public var description: String {
            guard let url else { return reason.errorDescription }
            let type = contentType.map { " (Content-Type: \($0))" } ?? ""
            return "The response for \(url.absoluteString)\(type) is not a usable image: \(reason.errorDescription)"
        }
    }

    /// The decoding failure this error carries, if it is one (see ``DecodingFailure``).
    public var decodingFailure: DecodingFailure? {
        guard case .processorError(reason: .processingFailed(let failure as DecodingFailure, _)) = self else { return nil }
        return failure
    }

    /// What the decoder said, when this error is data that did not decode (or encode).
    public var imageCodingError: ImageCodingError? { decodingFailure?.reason }

    /// This error with the download's URL and Content-Type added to its decoding failure; any
    /// other error unchanged.
    func downloaded(from url: URL, contentType: String?) -> KingfisherError {
        guard case .processorError(reason: .processingFailed(let failure as DecodingFailure, let item)) = self else { return self }
        let located = DecodingFailure(processor: failure.processor, reason: failure.reason, url: url, contentType: contentType)
        return .processorError(reason: .processingFailed(processor: located, item: item))
    }
}
