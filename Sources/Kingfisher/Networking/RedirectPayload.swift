// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension KF {
    /// A redirect to decide, handed to the block of ``KFOptionSetter/redirectHandler(_:)-((KF.RedirectPayload)->Void)``.
    public struct RedirectPayload: Sendable {
        /// The caller's share of the download (Kingfisher passes its `SessionDataTask`); `nil`
        /// for a download whose caller has no task.
        public let task: DownloadTask?
        /// The redirect response (a 3xx with a `Location`).
        public let response: HTTPURLResponse
        /// The request that follows the redirect.
        public let newRequest: URLRequest
        /// Call exactly once: with the request to follow (`newRequest` or a changed one), or with
        /// `nil` to stop, making the redirect response the response.
        public let completionHandler: @Sendable (URLRequest?) -> Void
    }
}
