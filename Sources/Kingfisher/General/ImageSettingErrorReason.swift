// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

extension KingfisherError {
    /// Reasons for ``KingfisherError/imageSettingError(reason:)``, as Kingfisher's.
    public enum ImageSettingErrorReason: Sendable {
        /// The source to set was `nil`. Code 5001.
        case emptySource
        /// A newer `setImage` replaced this request; its outcome (`result` or `error`) was not
        /// set. Code 5002.
        case notCurrentSourceTask(result: RetrieveImageResult?, error: (any Error)?, source: Source)
        /// The data provider failed. Code 5003.
        case dataProviderError(provider: any ImageDataProvider, error: any Error)
        /// The source and every alternative source failed; each failure in order. Code 5004.
        case alternativeSourcesExhausted([PropagationError])

        /// The error code within the `com.onevcat.Kingfisher.Error` domain.
        public var errorCode: Int {
            switch self {
            case .emptySource: return 5001
            case .notCurrentSourceTask: return 5002
            case .dataProviderError: return 5003
            case .alternativeSourcesExhausted: return 5004
            }
        }

        /// A human readable description.
        public var errorDescription: String {
            switch self {
            case .emptySource: return "No source was given."
            case .notCurrentSourceTask(_, _, let source): return "A newer request replaced the one for \(source.cacheKey)."
            case .dataProviderError(let provider, let error): return "The data provider for \(provider.cacheKey) failed: \(error)"
            case .alternativeSourcesExhausted(let errors):
                let tried = errors.map { "\($0.source.cacheKey): \($0.error)" }.joined(separator: "; ")
                return "Every source failed (\(tried))."
            }
        }
    }
}

/// One source's failure, recorded while trying alternative sources.
public struct PropagationError: Sendable {
    /// The source that failed.
    public let source: Source
    /// Why.
    public let error: KingfisherError
}
