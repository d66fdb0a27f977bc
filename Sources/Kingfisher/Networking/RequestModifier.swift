// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Changes a download request before it is sent, asynchronously, as Kingfisher's
/// `AsyncImageDownloadRequestModifier`. Returning `nil` fails the download with `emptyRequest`.
public protocol AsyncImageDownloadRequestModifier: Sendable {
    /// The request to send instead of `request`, or `nil` to stop.
    func modified(for request: URLRequest) async -> URLRequest?
    /// Called with the task once the modified request has joined its download. As in Kingfisher,
    /// an asynchronous modifier has no default: it must declare this, `nil` when it does not care.
    var onDownloadTaskStarted: (@Sendable (DownloadTask?) -> Void)? { get }
}

/// Changes a download request before it is sent, synchronously, as Kingfisher's
/// `ImageDownloadRequestModifier`.
public protocol ImageDownloadRequestModifier: AsyncImageDownloadRequestModifier {
    /// The request to send instead of `request`, or `nil` to stop.
    func modified(for request: URLRequest) -> URLRequest?
}

extension ImageDownloadRequestModifier {
    /// `nil`: a synchronous modifier is not told when the download starts unless it says so.
    public var onDownloadTaskStarted: (@Sendable (DownloadTask?) -> Void)? { nil }

    /// Calls the synchronous form.
    public func modified(for request: URLRequest) async -> URLRequest? {
        let modify: (URLRequest) -> URLRequest? = modified(for:)
        return modify(request)
    }
}

/// A synchronous request modifier from a closure.
public struct AnyModifier: ImageDownloadRequestModifier {
    private let block: @Sendable (URLRequest) -> URLRequest?

    /// Creates a modifier that runs `modify`.
    public init(modify: @escaping @Sendable (URLRequest) -> URLRequest?) {
        block = modify
    }

    /// `modify(request)`.
    public func modified(for request: URLRequest) -> URLRequest? {
        block(request)
    }
}

/// Decides what happens with a redirect, as Kingfisher's `ImageDownloadRedirectHandler`.
/// Returning `nil` stops following: the redirect response itself becomes the response.
public protocol ImageDownloadRedirectHandler: Sendable {
    /// The request to follow `response` with (by default `newRequest`), or `nil` to stop.
    func handleHTTPRedirection(for task: DownloadTask?, response: HTTPURLResponse, newRequest: URLRequest) async -> URLRequest?
}

/// A redirect handler from a closure.
public struct AnyRedirectHandler: ImageDownloadRedirectHandler {
    private let block: @Sendable (DownloadTask?, HTTPURLResponse, URLRequest) async -> URLRequest?

    /// Creates a handler that runs `handle` and follows with the request it returns.
    public init(handle: @escaping @Sendable (DownloadTask?, HTTPURLResponse, URLRequest) async -> URLRequest?) {
        block = handle
    }

    /// Creates a handler that runs `handle` and follows with the request it passes to its last
    /// argument, as Kingfisher's. `handle` should call it once: later calls are ignored (where
    /// Kingfisher traps), and a handler that never calls it leaves the download to its
    /// ``ImageDownloader/maxDownloadDuration``.
    public init(handle: @escaping @Sendable (DownloadTask?, HTTPURLResponse, URLRequest, @escaping @Sendable (URLRequest?) -> Void) -> Void)
    {
        block = { task, response, newRequest in
            await firstAnswer { handle(task, response, newRequest, $0) }
        }
    }

    /// `handle(task, response, newRequest)`.
    public func handleHTTPRedirection(for task: DownloadTask?, response: HTTPURLResponse, newRequest: URLRequest) async -> URLRequest? {
        await block(task, response, newRequest)
    }
}
