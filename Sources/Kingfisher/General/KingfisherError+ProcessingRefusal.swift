// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

extension KingfisherError {
    /// Why a built-in processor refused to run, carried where Kingfisher reports it: as the
    /// processor of `processorError(.processingFailed(processor:item:))`, as
    /// ``DecodingFailure`` carries a decoder's reason. Its ``identifier`` is the caller's
    /// processor's, so code comparing processors by identifier sees no difference.
    public struct ProcessingRefusal: ImageProcessor, CustomStringConvertible {
        /// The processor the caller asked for.
        public let processor: any ImageProcessor
        /// What the processor said: an output over the pixel limit, a parameter out of range.
        public let reason: ImageProcessingError

        /// Creates a refusal of `processor` for `reason`.
        public init(processor: any ImageProcessor, reason: ImageProcessingError) {
            self.processor = processor
            self.reason = reason
        }

        /// The caller's processor's identifier.
        public var identifier: String { processor.identifier }

        /// The caller's processor's work.
        public func process(item: ImageProcessItem, options: KingfisherParsedOptionsInfo) -> KFCrossPlatformImage? {
            processor.process(item: item, options: options)
        }

        /// The processor's reason, one line.
        public var description: String { reason.errorDescription }
    }

    /// The processor's refusal this error carries, if it is one (see ``ProcessingRefusal``).
    public var processingRefusal: ProcessingRefusal? {
        guard case .processorError(reason: .processingFailed(let refusal as ProcessingRefusal, _)) = self else { return nil }
        return refusal
    }
}
