// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Moves the bytes of HTTP exchanges for an ``ImageDownloader``. The downloader follows
/// redirects, checks statuses and limits, and times out idle exchanges itself, so a transport
/// only sends one request and reports what comes back: tests and users can plug in another (for
/// example one over URLSession). The default is ``AsyncHTTPClientTransport``.
///
/// The interface is callbacks rather than `async` on purpose: a download then costs no task and
/// no thread hop per body chunk, which is most of what separates a downloader from curl.
public protocol ImageDownloaderTransport: Sendable {
    /// Starts sending `request`, without following redirects, and returns at once.
    ///
    /// `receiver` hears ``TransportExchangeReceiver/didReceiveResponse(_:proceed:)`` at most
    /// once, then body chunks, then ``TransportExchangeReceiver/didComplete(with:)`` exactly once
    /// (also after ``TransportExchange/cancel()`` and after the receiver stopped the exchange);
    /// never two calls at once. `didComplete` may come before this method returns.
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - acceptingUntrustedCertificates: Whether a self-signed or otherwise unverifiable
    ///     TLS certificate is accepted (the host is one of the downloader's `trustedHosts`).
    ///   - receiver: Hears the response, the body chunks and the completion.
    func startExchange(
        _ request: URLRequest, acceptingUntrustedCertificates: Bool,
        receiver: any TransportExchangeReceiver
    ) -> any TransportExchange
}

/// A started exchange.
public protocol TransportExchange: Sendable {
    /// Stops the exchange and releases its connection; the receiver then hears `didComplete` with
    /// an error (unless the exchange had already completed).
    func cancel()
}

/// What a transport reports about one exchange, in order.
public protocol TransportExchangeReceiver: Sendable {
    /// The response head arrived. The transport reads no body until `proceed` has been called
    /// (exactly once, from any thread): `true` reads the body, `false` stops the exchange.
    func didReceiveResponse(_ response: TransportResponse, proceed: @escaping @Sendable (Bool) -> Void)

    /// A body chunk, valid only during the call. Returning `false` stops the exchange.
    func didReceiveData(_ bytes: UnsafeRawBufferPointer) -> Bool

    /// The exchange ended: `nil` after the whole body arrived, else the error that ended it.
    func didComplete(with error: (any Error)?)
}

/// A response head as a transport received it: cheap to make, turned into an `HTTPURLResponse`
/// only when someone (a delegate, a redirect handler, an error) needs one.
public struct TransportResponse: Sendable {
    /// The URL the request was sent to.
    public var url: URL
    /// The HTTP status code.
    public var statusCode: Int
    /// The protocol version, for example "HTTP/1.1" or "HTTP/2.0".
    public var httpVersion: String
    /// The header fields in the order received; a name may repeat.
    public var headerFields: [(name: String, value: String)]

    /// Creates a response head.
    public init(url: URL, statusCode: Int, httpVersion: String, headerFields: [(name: String, value: String)]) {
        self.url = url
        self.statusCode = statusCode
        self.httpVersion = httpVersion
        self.headerFields = headerFields
    }

    /// The first value of the header `name` (compared case-insensitively), or `nil`.
    public func value(forHTTPHeaderField name: String) -> String? {
        headerFields.first { Self.sameFieldName($0.name, name) }?.value
    }

    /// The Content-Length, or -1 when absent or invalid (as `URLResponse`).
    public var expectedContentLength: Int64 {
        guard let value = value(forHTTPHeaderField: "Content-Length") else { return -1 }
        return Int64(value) ?? Int64(value.trimmingCharacters(in: .whitespaces)) ?? -1
    }

    /// Field names are ASCII and compared case-insensitively: a byte loop, not a locale-aware
    /// comparison (which costs microseconds per call).
    private static func sameFieldName(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count
            && zip(a.utf8, b.utf8).allSatisfy { x, y in
                x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= UInt8(ascii: "a") && (x | 0x20) <= UInt8(ascii: "z"))
            }
    }

    /// The same head as Foundation's `HTTPURLResponse` (repeated fields joined with ", ").
    public var httpURLResponse: HTTPURLResponse {
        var fields: [String: String] = [:]
        for (name, value) in headerFields {
            fields[name] = fields[name].map { "\($0), \(value)" } ?? value
        }
        // Only nil for a status code outside 100...599, which no transport hands over.
        return HTTPURLResponse(url: url, statusCode: statusCode, httpVersion: httpVersion, headerFields: fields)
            ?? HTTPURLResponse(url: url, statusCode: 500, httpVersion: httpVersion, headerFields: fields)!
    }
}
