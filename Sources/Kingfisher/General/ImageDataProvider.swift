// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Produces image data without the network: Kingfisher decodes, processes and caches it like a
/// download, under ``cacheKey``.
///
/// Implement at least one of ``data()`` and ``data(handler:)``: each has a default written with
/// the other, so a provider implementing neither calls itself forever, as in Kingfisher.
public protocol ImageDataProvider: Sendable {
    /// The key the image is cached under.
    var cacheKey: String { get }
    /// The data. Thrown errors reach callers as `imageSettingError(.dataProviderError)`; a
    /// `CancellationError` while the load is cancelled as `requestError(.dataProviderCancelled)`.
    ///
    /// Default: calls ``data(handler:)`` and waits for its handler. That bridge cannot stop the
    /// callback's work when the load is cancelled (its result is then dropped); implement this
    /// method to take part in cancellation.
    func data() async throws -> Data
    /// The data through a callback: pass `.success(data)` or `.failure(error)` to `handler`,
    /// once. Default: runs ``data()`` in a new task.
    func data(handler: @escaping @Sendable (Result<Data, any Error>) -> Void)
    /// A URL describing the content, if any. Default `nil`.
    var contentURL: URL? { get }
}

extension ImageDataProvider {
    public var contentURL: URL? { nil }

    /// The provider as a ``Source``: `.provider(self)`.
    public func convertToSource() -> Source { .provider(self) }

    public func data() async throws -> Data {
        // A handler called twice is ignored the second time, not a trap.
        try await firstAnswer { data(handler: $0) }.get()
    }

    public func data(handler: @escaping @Sendable (Result<Data, any Error>) -> Void) {
        OffPoolExecutor.task {
            do { handler(.success(try await data())) } catch { handler(.failure(error)) }
        }
    }
}

/// Reads an image file.
public struct LocalFileImageDataProvider: ImageDataProvider {
    /// The file.
    public let fileURL: URL
    /// The key; default `fileURL.localFileCacheKey`.
    public var cacheKey: String
    /// Where the file is read. Default `.dispatch(.global(qos: .userInitiated))`.
    public let loadingQueue: CallbackQueue

    /// Creates a provider for `fileURL`.
    public init(
        fileURL: URL, cacheKey: String? = nil,
        loadingQueue: CallbackQueue = .dispatch(.global(qos: .userInitiated))
    ) {
        self.fileURL = fileURL
        self.cacheKey = cacheKey ?? fileURL.localFileCacheKey
        self.loadingQueue = loadingQueue
    }

    /// The file's bytes, read on ``loadingQueue`` (a cooperative thread never waits on disk).
    public func data() async throws -> Data {
        try await withCheckedThrowingContinuation { continuation in
            data { continuation.resume(with: $0) }
        }
    }

    /// Reads the file on ``loadingQueue`` and calls `handler` there, as Kingfisher does.
    public func data(handler: @escaping @Sendable (Result<Data, any Error>) -> Void) {
        let url = fileURL
        loadingQueue.execute { handler(Result { try Data(contentsOf: url) }) }
    }

    /// The file's bytes, as a property (Kingfisher's form); see ``data()``.
    public var data: Data {
        get async throws { try await data() }
    }

    /// The file URL.
    public var contentURL: URL? { fileURL }
}

/// Decodes base64 text (optionally a whole `data:` URL) into image data.
public struct Base64ImageDataProvider: ImageDataProvider {
    /// The text.
    public let base64String: String
    /// The key.
    public var cacheKey: String

    /// Creates a provider. A `data:…;base64,` prefix is accepted and skipped.
    public init(base64String: String, cacheKey: String) {
        self.base64String = base64String
        self.cacheKey = cacheKey
    }

    /// The decoded bytes; invalid base64 throws `ImageCodingError.unknownFormat`.
    public func data() async throws -> Data { try decoded() }

    /// Decodes the text and calls `handler` at once, on the calling thread, as Kingfisher does.
    public func data(handler: @escaping @Sendable (Result<Data, any Error>) -> Void) {
        handler(Result { try decoded() })
    }

    private func decoded() throws -> Data {
        var text = Substring(base64String)
        if text.hasPrefix("data:"), let comma = text.firstIndex(of: ",") { text = text[text.index(after: comma)...] }
        guard let data = Data(base64Encoded: String(text), options: .ignoreUnknownCharacters), !data.isEmpty else {
            throw ImageCodingError.unknownFormat(description: "the text is not valid base64")
        }
        return data
    }
}

/// Hands over bytes already in memory.
public struct RawImageDataProvider: ImageDataProvider {
    /// The bytes.
    public let data: Data
    /// The key.
    public var cacheKey: String

    /// Creates a provider.
    public init(data: Data, cacheKey: String) {
        self.data = data
        self.cacheKey = cacheKey
    }

    /// ``data``.
    public func data() async throws -> Data { data }

    /// Calls `handler` with ``data`` at once, on the calling thread, as Kingfisher does.
    public func data(handler: @escaping @Sendable (Result<Data, any Error>) -> Void) {
        handler(.success(data))
    }
}
