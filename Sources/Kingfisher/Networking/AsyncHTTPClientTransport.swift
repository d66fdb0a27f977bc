import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The default transport, on AsyncHTTPClient: connection pooling, HTTP/2 when the server offers
/// it (ALPN), streaming bodies, and cancellation that closes the connection.
///
/// Certificates are verified, except for requests the downloader marks as going to a trusted
/// host, which use a second client that accepts self-signed certificates.
public final class AsyncHTTPClientTransport: ImageDownloaderTransport {
    /// The transport every ``ImageDownloader`` uses unless given another: up to 8 connections
    /// per host.
    public static let shared = AsyncHTTPClientTransport()

    private let verifying: HTTPClient
    private let lenient: Mutex<HTTPClient?> = Mutex(nil)
    private let connectionsPerHost: Int

    /// Creates a transport with its own connection pools.
    ///
    /// - Parameter maximumConnectionsPerHost: HTTP/1.1 connections kept per host (HTTP/2
    ///   multiplexes on one). Default 8.
    public init(maximumConnectionsPerHost: Int = 8) {
        connectionsPerHost = maximumConnectionsPerHost
        verifying = HTTPClient(eventLoopGroupProvider: .singleton, configuration: Self.configuration(perHost: maximumConnectionsPerHost))
    }

    deinit {
        verifying.shutdown { _ in }
        lenient.withLock { $0?.shutdown { _ in } }
    }

    private static func configuration(perHost: Int, verify: Bool = true) -> HTTPClient.Configuration {
        var configuration = verify
            ? HTTPClient.Configuration(redirectConfiguration: .disallow)
            : HTTPClient.Configuration(certificateVerification: .none, redirectConfiguration: .disallow)
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: perHost)
        // AsyncHTTPClient retries a failing connection until this timeout, then reports the
        // last connection error (refused, TLS): 3 s keeps that error ahead of the downloader's
        // idle timeout (15 s by default).
        configuration.timeout = .init(connect: .seconds(3))
        configuration.httpVersion = .automatic
        configuration.decompression = .disabled
        return configuration
    }

    private func client(acceptingUntrustedCertificates: Bool) -> HTTPClient {
        guard acceptingUntrustedCertificates else { return verifying }
        return lenient.withLock { client in
            if let client { return client }
            let made = HTTPClient(eventLoopGroupProvider: .singleton,
                                  configuration: Self.configuration(perHost: connectionsPerHost, verify: false))
            client = made
            return made
        }
    }

    public func perform(_ request: URLRequest, acceptingUntrustedCertificates: Bool,
                        didReceiveResponse: (HTTPURLResponse) async throws -> Bool,
                        didReceiveData: (UnsafeRawBufferPointer) throws -> Void) async throws {
        guard let url = request.url else { throw URLError(.badURL) }
        var outgoing = HTTPClientRequest(url: url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.httpMethod ?? "GET")
        for (name, value) in request.allHTTPHeaderFields ?? [:] { outgoing.headers.add(name: name, value: value) }
        if let body = request.httpBody { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await client(acceptingUntrustedCertificates: acceptingUntrustedCertificates)
            .execute(outgoing, deadline: .distantFuture)
        var fields: [String: String] = [:]
        for header in response.headers {
            fields[header.name] = fields[header.name].map { "\($0), \(header.value)" } ?? header.value
        }
        guard let head = HTTPURLResponse(url: url, statusCode: Int(response.status.code),
                                         httpVersion: "HTTP/\(response.version.major).\(response.version.minor)",
                                         headerFields: fields) else {
            throw URLError(.badServerResponse)
        }
        guard try await didReceiveResponse(head) else { return }
        for try await chunk in response.body {
            try Task.checkCancellation()
            try chunk.withUnsafeReadableBytes { try didReceiveData($0) }
        }
    }
}
