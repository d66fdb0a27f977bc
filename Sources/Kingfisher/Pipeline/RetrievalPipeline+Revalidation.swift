// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// What a conditional fetch of a source found: for a service that keeps each source's
/// validators and freshness itself (`kf serve`).
package enum SourceRevalidation: Sendable {
    /// `304 Not Modified`: what is kept of the source still stands; the response's caching
    /// fields renew it.
    case notModified(TransportResponse)
    /// The source as it is now, undecoded, and the response it came in.
    case changed(Data, TransportResponse)
}

extension RetrievalPipeline {
    /// `url` fetched again, conditionally with `validators` (sending `If-None-Match` /
    /// `If-Modified-Since`), unconditionally without; with `request`'s options (its redirect
    /// handler and limits), never through the tiers. Cancelling the calling task cancels the
    /// fetch.
    package func revalidate(
        _ url: URL, as request: RetrievalRequest, validators: HTTPValidators?
    ) async throws(KingfisherError) -> SourceRevalidation {
        let options = request.parsedOptions(downloader: downloader)
        return try await Self.downloading(startedBy: nil) { completion in
            downloader.download(url, options: options, validators: validators, takesData: true) { outcome in
                completion(
                    outcome.flatMap { outcome in
                        switch outcome {
                        case .notModified(let response): .success(.notModified(response))
                        case .fetched(_, let body): .success(.changed(body.data, body.response))
                        // Not asked for (this download takes bytes): a status without an image.
                        case .downloaded(_, let response):
                            .failure(.responseError(reason: .invalidHTTPStatusCode(response: response.httpURLResponse)))
                        }
                    })
            }
        }
    }
}
