// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// What ``KingfisherManager`` adds to a ``RetrievalRequest``: Kingfisher's whole option list,
/// and hooks for the parts of a retrieval that are its own (the download task it hands back,
/// its HTTP caching records).
package struct RetrievalCaller: Sendable {
    /// The options the source is downloaded and processed with (`nil`: the request's own).
    package var options: KingfisherParsedOptionsInfo?
    /// Told of a download as it starts, before the first suspension of a request started with
    /// `Task.immediate`: the manager returns it from `retrieveImage`.
    package var downloadStarted: (@Sendable (DownloadTask) -> Void)?
    /// Whether a fetched original may be stored, asked once it has been downloaded, with the
    /// time its request was made (a `no-store` response may not). `nil`: it may.
    package var mayStoreFetched: (@Sendable (ImageLoadingResult, _ requestTime: Date) -> Bool)?

    package init(
        options: KingfisherParsedOptionsInfo? = nil, downloadStarted: (@Sendable (DownloadTask) -> Void)? = nil,
        mayStoreFetched: (@Sendable (ImageLoadingResult, _ requestTime: Date) -> Bool)? = nil
    ) {
        self.options = options
        self.downloadStarted = downloadStarted
        self.mayStoreFetched = mayStoreFetched
    }
}
