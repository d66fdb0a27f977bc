// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

@testable import Kingfisher

/// The coding error reason a throwing expression failed with, or nil if it did not fail that way.
package func codingErrorReason(_ body: () throws -> Void) -> ImageCodingError? {
    do {
        try body()
        return nil
    } catch let error as ImageCodingError {
        return error
    } catch let error as KingfisherError {
        return error.imageCodingError
    } catch {
        return nil
    }
}

/// The `KingfisherError` an async operation failed with, or `nil` when it succeeded (or failed
/// with another error).
package func kingfisherError(_ body: () async throws -> Void) async -> KingfisherError? {
    do {
        try await body()
        return nil
    } catch {
        return error as? KingfisherError
    }
}

/// The `URLError` of a `responseError(.URLSessionError)`, with its code and the downloader's
/// limit (``ImageDownloader/limitUserInfoKey``) when it is one.
package func urlSessionError(_ error: KingfisherError?) -> (code: URLError.Code, limit: Int?, received: Int64?)? {
    guard case .responseError(reason: .URLSessionError(let underlying as URLError))? = error else { return nil }
    return (
        underlying.code, underlying.userInfo[ImageDownloader.limitUserInfoKey] as? Int,
        underlying.userInfo[ImageDownloader.receivedByteCountUserInfoKey] as? Int64
    )
}
