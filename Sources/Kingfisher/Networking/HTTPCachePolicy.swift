// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// Whether retrievals follow the HTTP caching headers of downloaded images.
///
/// Set through ``KingfisherOptionsInfoItem/httpCachePolicy(_:)``; `kf get --http-cache` and
/// `kf prefetch --http-cache` use ``followHeaders``.
public enum HTTPCachePolicy: Sendable, Hashable {
    /// Kingfisher's behaviour: a cached image is used until the cache expires it, whatever the
    /// origin said; the response's caching headers are ignored. The default.
    case clientDecides

    /// RFC 9111 for images. A cached image is used without a request while its response is
    /// fresh (`Cache-Control: max-age`, else `Expires`, else a tenth of its age since
    /// `Last-Modified`; `no-cache` means never); once stale it is revalidated with
    /// `If-None-Match` / `If-Modified-Since`, and a `304 Not Modified` extends the expiration of
    /// the original and every processed variant in memory and on disk without downloading or
    /// processing again. A response with `no-store` is never written to disk. When the origin
    /// cannot be reached, a stale image is used unless its response said `must-revalidate`.
    /// Concurrent revalidations of one URL share one request. Images cached before (without
    /// the response's headers) are downloaded again once.
    case followHeaders
}
