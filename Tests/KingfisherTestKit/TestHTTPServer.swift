// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL

@testable import Kingfisher
@testable import KingfisherImaging

/// A real HTTP/1.1 server on 127.0.0.1 with a random port, for the downloader tests.
///
/// Endpoints:
/// - `/image/<fixture>`: the fixture's bytes (a fixture is a file in Fixtures, or bytes given
///   to ``serve(_:as:)``)
/// - `/slow/<fixture>?chunk=N&interval=ms`: the fixture in N-byte chunks, one per interval
/// - `/status/<code>`: that status with a short text body
/// - `/redirect/<n>/<fixture>`: n redirects, then the image; `/loop`: redirects to itself;
///   `/unixredirect`: redirects to an `http+unix:` URL; `/redirect-to?location=URL`: to `URL`
/// - `/flaky/<n>/<fixture>`: 503 for the first n requests of that path, then the image
/// - `/html`: an HTML error page with status 200; `/big`: a 64 MB body; `/hang`: never answers
/// - faults: `/reset/<fixture>` half the body, then a TCP reset; `/overlong/<fixture>` a
///   Content-Length 1000 bytes past the body, then the connection closes; `/underlong/<fixture>`
///   a Content-Length of half the body, then the whole body; `/noresponse` closes on the request
/// - HTTP caching: `/cacheable/<fixture>?cc=<Cache-Control>&lm=<Last-Modified>` the fixture with
///   `ETag: "<fixture>"` and those fields; `304` to a matching `If-None-Match` (or, without it,
///   an `If-Modified-Since` equal to `lm`). ``replaceFixture(of:with:)`` changes what a path
///   serves (and so its tag).
/// - resuming: `/resumable/<fixture>` with a strong ETag and `Accept-Ranges: bytes`; the first
///   full request gets half the body, then a TCP reset; `Range: bytes=N-` with a matching
///   `If-Range` gets `206` and the rest; anything else the whole image.
/// - `/auth/<user>:<password>/<fixture>`: the fixture to `Authorization: Basic` with those
///   credentials, else `401` with `WWW-Authenticate: Basic realm="images"`
/// Statuses sent and body bytes sent are recorded per path.
/// Every request is counted per path; request headers are recorded; a response the client
/// abandoned (connection closed before the end) is counted as aborted. Tests wait for counts with
/// ``wait(until:)``.
///
/// Tests use it through ``withTestHTTPServer(tls:isolation:_:)``, which shuts it down.
package final class TestHTTPServer: Sendable {
    package struct Stats: Sendable {
        package var requests: [String: Int] = [:]
        /// Every request's path (without the query), in arrival order.
        package var arrivals: [String] = []
        package var headers: [String: [String: String]] = [:]
        package var aborted: [String: Int] = [:]
        package var completed: [String: Int] = [:]
        package var httpVersions: [String: Int] = [:]
        /// The statuses sent, in order.
        package var statuses: [String: [Int]] = [:]
        /// Body bytes written for each path, all responses together.
        package var bodyBytesSent: [String: Int] = [:]
        /// Fixtures served instead of the one a `/cacheable/` path names.
        package var replacedFixtures: [String: String] = [:]
        /// Bytes a test made, served under a fixture name (too large to keep as files).
        package var madeFixtures: [String: Data] = [:]
    }

    package let stats = WaitableState(Stats())
    private let channel: any Channel
    /// The open connections (plain HTTP only), for ``goAway()``.
    private let connections = Locked<[ObjectIdentifier: any Channel]>([:])
    package let port: Int
    package let scheme: String

    /// Starts the server; with `tls`, HTTPS with a self-signed certificate for 127.0.0.1 made by
    /// the `openssl` command, offering HTTP/2 and HTTP/1.1 through ALPN.
    package init(tls: Bool = false) async throws {
        let stats = self.stats
        let connections = self.connections
        scheme = tls ? "https" : "http"
        let sslContext = tls ? try Self.selfSignedContext() : nil
        if let sslContext {
            channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    do {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: sslContext))
                    } catch {
                        return channel.eventLoop.makeFailedFuture(error)
                    }
                    return channel.configureCommonHTTPServerPipeline { stream in
                        stream.eventLoop.makeCompletedFuture {
                            try stream.pipeline.syncOperations.addHandler(Handler(stats: stats))
                        }
                    }
                }
                .bind(host: "127.0.0.1", port: 0).get()
        } else {
            channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.backlog, value: 256)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    connections.withLock { $0[ObjectIdentifier(channel)] = channel }
                    channel.closeFuture.whenComplete { _ in _ = connections.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) } }
                    return channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                        try channel.pipeline.syncOperations.addHandler(Handler(stats: stats))
                    }
                }
                .bind(host: "127.0.0.1", port: 0).get()
        }
        port = channel.localAddress!.port!
    }

    package func url(_ path: String) -> URL { URL(string: "\(scheme)://127.0.0.1:\(port)\(path)")! }

    private static func selfSignedContext() throws -> NIOSSLContext {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kf-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = directory.appendingPathComponent("key.pem").path
        let cert = directory.appendingPathComponent("cert.pem").path
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1",
            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
        ]
        openssl.standardOutput = FileHandle.nullDevice
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(cert).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: key, format: .pem)))
        configuration.applicationProtocols = ["h2", "http/1.1"]
        return try NIOSSLContext(configuration: configuration)
    }

    package func requests(_ path: String) -> Int { stats.read { $0.requests[path] ?? 0 } }
    /// Requests for every path together.
    package var totalRequests: Int { stats.read { $0.arrivals.count } }
    package func aborted(_ path: String) -> Int { stats.read { $0.aborted[path] ?? 0 } }
    package func completed(_ path: String) -> Int { stats.read { $0.completed[path] ?? 0 } }
    package func headers(_ path: String) -> [String: String] { stats.read { $0.headers[path] ?? [:] } }
    package func httpVersion(_ path: String) -> Int? { stats.read { $0.httpVersions[path] } }
    package func statuses(_ path: String) -> [Int] { stats.read { $0.statuses[path] ?? [] } }
    package func bodyBytesSent(_ path: String) -> Int { stats.read { $0.bodyBytesSent[path] ?? 0 } }

    /// Makes the `/cacheable/` `path` serve `fixture` (with its tag) from now on.
    package func replaceFixture(of path: String, with fixture: String) {
        stats.update { $0.replacedFixtures[path] = fixture }
    }

    /// Serves `data` wherever a fixture named `name` is asked for.
    package func serve(_ data: Data, as name: String) {
        stats.update { $0.madeFixtures[name] = data }
    }

    /// Returns once `condition` holds for the counts (at once if it does already).
    package func wait(until condition: @escaping @Sendable (Stats) -> Bool) async throws {
        try await stats.wait(until: condition)
    }

    /// Stops listening and closes every open connection: the origin cannot be reached (plain
    /// HTTP only).
    package func goAway() async {
        await shutdown()
        for connection in connections.withLock({ Array($0.values) }) { try? await connection.close() }
    }

    package func shutdown() async {
        try? await channel.close()
    }

    /// Handles one connection's requests.
    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        let stats: WaitableState<Stats>
        var head: HTTPRequestHead?
        var streaming: String?

        init(stats: WaitableState<Stats>) {
            self.stats = stats
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head): self.head = head
            case .body: break
            case .end:
                guard let head else { return }
                respond(to: head, context: context)
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            if let path = streaming { stats.update { $0.aborted[path, default: 0] += 1 } }
            streaming = nil
            context.fireChannelInactive()
        }

        private func fixture(_ name: String) -> Data? {
            stats.read { $0.madeFixtures[name] }
                ?? FileManager.default.contents(atPath: Fixtures.directory.appendingPathComponent(name).path)
        }

        private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
            let components = URLComponents(string: head.uri)!
            let path = components.path
            let query = Dictionary(uniqueKeysWithValues: (components.queryItems ?? []).map { ($0.name, $0.value ?? "") })
            stats.update { stats in
                stats.requests[path, default: 0] += 1
                stats.arrivals.append(path)
                stats.httpVersions[path] = head.version.major
                stats.headers[path] = Dictionary(head.headers.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
            }
            let parts = path.split(separator: "/").map(String.init)
            switch parts.first {
            case "image":
                guard parts.count == 2, let data = fixture(parts[1]) else { return send(404, "no such fixture", context, path) }
                let types = ["png": "image/png", "gif": "image/gif", "webp": "image/webp", "svg": "image/svg+xml"]
                let type = types[String(parts[1].split(separator: ".").last ?? "")] ?? "image/jpeg"
                send(200, data, context, path, contentType: type)
            case "slow":
                guard parts.count == 2, let data = fixture(parts[1]) else { return send(404, "no such fixture", context, path) }
                let chunk = max(1, Int(query["chunk"] ?? "64") ?? 64)
                let interval = Int64(query["interval"] ?? "20") ?? 20
                var responseHead = HTTPResponseHead(version: .http1_1, status: .ok)
                responseHead.headers.add(name: "Content-Type", value: "image/png")
                responseHead.headers.add(name: "Content-Length", value: "\(data.count)")
                context.write(wrapOutboundOut(.head(responseHead)), promise: nil)
                context.flush()
                streaming = path
                writeChunks(data, from: 0, chunk: chunk, interval: interval, context: context, path: path)
            case "status":
                let code = Int(parts.count > 1 ? parts[1] : "500") ?? 500
                send(code, "status \(code)", context, path)
            case "redirect":
                guard parts.count == 3, let count = Int(parts[1]) else { return send(400, "bad redirect", context, path) }
                let location = count <= 1 ? "/image/\(parts[2])" : "/redirect/\(count - 1)/\(parts[2])"
                send(302, "", context, path, headers: ["Location": location])
            case "flaky":
                guard parts.count == 3, let failures = Int(parts[1]), let data = fixture(parts[2]) else {
                    return send(400, "bad flaky", context, path)
                }
                if stats.read({ $0.requests[path] ?? 0 }) <= failures {
                    send(503, "try again", context, path)
                } else {
                    send(200, data, context, path, contentType: "image/png")
                }
            case "redirect-to":
                send(302, "", context, path, headers: ["Location": query["location"] ?? ""])
            case "unixredirect":
                send(302, "", context, path, headers: ["Location": "http+unix://%2Fvar%2Frun%2Fdocker.sock/info"])
            case "loop":
                send(302, "", context, path, headers: ["Location": "/loop"])
            case "html":
                send(
                    200, "<!DOCTYPE html><html><body><h1>404 Not Found</h1></body></html>", context, path,
                    contentType: "text/html; charset=utf-8")
            case "big":
                var responseHead = HTTPResponseHead(version: .http1_1, status: .ok)
                responseHead.headers.add(name: "Content-Type", value: "image/jpeg")
                if query["length"] != "hidden" { responseHead.headers.add(name: "Content-Length", value: "\(64 << 20)") }
                context.write(wrapOutboundOut(.head(responseHead)), promise: nil)
                streaming = path
                writeChunks(Data(repeating: 0xFF, count: 64 << 20), from: 0, chunk: 1 << 20, interval: 1, context: context, path: path)
            case "hang":
                streaming = path
            case "reset", "overlong", "underlong":
                guard parts.count == 2, let data = fixture(parts[1]) else { return send(404, "no such fixture", context, path) }
                sendFault(parts[0], data, context, path)
            case "noresponse":
                context.close(promise: nil)
            case "cacheable":
                guard parts.count == 2 else { return send(404, "no such fixture", context, path) }
                let name = stats.read { $0.replacedFixtures[path] } ?? parts[1]
                guard let data = fixture(name) else { return send(404, "no such fixture", context, path) }
                var fields = ["ETag": "\"\(name)\""]
                if let cc = query["cc"] { fields["Cache-Control"] = cc }
                if let lm = query["lm"] { fields["Last-Modified"] = lm }
                let ifNoneMatch = head.headers.first(name: "If-None-Match")
                let notModified =
                    ifNoneMatch.map { $0 == fields["ETag"] }
                    ?? (head.headers.first(name: "If-Modified-Since").map { $0 == query["lm"] })
                    ?? false
                if notModified {
                    send(304, Data(), context, path, contentType: "image/png", headers: fields)
                } else {
                    send(200, data, context, path, contentType: "image/png", headers: fields)
                }
            case "auth":
                guard parts.count == 3, let data = fixture(parts[2]) else { return send(404, "no such fixture", context, path) }
                let expected = "Basic " + Data(parts[1].utf8).base64EncodedString()
                if head.headers.first(name: "Authorization") == expected {
                    send(200, data, context, path, contentType: "image/png")
                } else {
                    send(401, "who are you?", context, path, headers: ["WWW-Authenticate": "Basic realm=\"images\""])
                }
            case "resumable":
                guard parts.count == 2, let data = fixture(parts[1]) else { return send(404, "no such fixture", context, path) }
                let fields = ["ETag": "\"\(parts[1])\"", "Accept-Ranges": "bytes"]
                if let range = head.headers.first(name: "Range"), head.headers.first(name: "If-Range") == fields["ETag"],
                    range.hasPrefix("bytes="), range.hasSuffix("-"), let start = Int(range.dropFirst(6).dropLast()), start < data.count
                {
                    var ranged = fields
                    ranged["Content-Range"] = "bytes \(start)-\(data.count - 1)/\(data.count)"
                    send(206, data.suffix(from: start), context, path, contentType: "image/png", headers: ranged)
                } else if stats.read({ $0.requests[path] ?? 0 }) == 1 {
                    sendFault("reset", data, context, path, headers: fields)
                } else {
                    send(200, data, context, path, contentType: "image/png", headers: fields)
                }
            default:
                send(404, "not found", context, path)
            }
        }

        /// Writes a response that breaks HTTP as `kind` says (see the endpoint list).
        private func sendFault(
            _ kind: String, _ data: Data, _ context: ChannelHandlerContext, _ path: String,
            headers: [String: String] = [:]
        ) {
            var responseHead = HTTPResponseHead(version: .http1_1, status: .ok)
            responseHead.headers.add(name: "Content-Type", value: "image/png")
            for (name, value) in headers { responseHead.headers.add(name: name, value: value) }
            let declared = kind == "overlong" ? data.count + 1000 : kind == "underlong" ? data.count / 2 : data.count
            responseHead.headers.add(name: "Content-Length", value: "\(declared)")
            context.write(wrapOutboundOut(.head(responseHead)), promise: nil)
            let sent = kind == "reset" ? data.prefix(data.count / 2) : data
            stats.update { stats in
                stats.statuses[path, default: []].append(200)
                stats.bodyBytesSent[path, default: 0] += sent.count
            }
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: sent)))), promise: nil)
            guard kind == "reset", let socket = context.channel as? any SocketOptionProvider else {
                return context.close(promise: nil)
            }
            // A zero linger time makes close send RST instead of FIN.
            socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).assumeIsolated().whenComplete { _ in
                context.close(promise: nil)
            }
        }

        private func writeChunks(
            _ data: Data, from offset: Int, chunk: Int, interval: Int64,
            context: ChannelHandlerContext, path: String
        ) {
            guard context.channel.isActive, streaming == path else { return }
            if offset >= data.count {
                streaming = nil
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                stats.update { $0.completed[path, default: 0] += 1 }
                return
            }
            let end = min(data.count, offset + chunk)
            // The next chunk goes out only once this one has left for the socket, so a client
            // that stops reading stalls the server instead of letting it buffer everything.
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: data[offset..<end])))))
                .assumeIsolated().whenSuccess {
                    context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(interval)) {
                        self.writeChunks(data, from: end, chunk: chunk, interval: interval, context: context, path: path)
                    }
                }
        }

        private func send(
            _ status: Int, _ body: String, _ context: ChannelHandlerContext, _ path: String,
            contentType: String = "text/plain", headers: [String: String] = [:]
        ) {
            send(status, Data(body.utf8), context, path, contentType: contentType, headers: headers)
        }

        private func send(
            _ status: Int, _ body: Data, _ context: ChannelHandlerContext, _ path: String,
            contentType: String, headers: [String: String] = [:]
        ) {
            guard context.channel.isActive else { return }
            streaming = nil
            var responseHead = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: status))
            responseHead.headers.add(name: "Content-Type", value: contentType)
            responseHead.headers.add(name: "Content-Length", value: "\(body.count)")
            for (name, value) in headers { responseHead.headers.add(name: name, value: value) }
            context.write(wrapOutboundOut(.head(responseHead)), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            stats.update { stats in
                stats.completed[path, default: 0] += 1
                stats.statuses[path, default: []].append(status)
                stats.bodyBytesSent[path, default: 0] += body.count
            }
        }
    }
}
