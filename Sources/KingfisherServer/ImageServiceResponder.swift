// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// Answers every request: `/`, `/healthz`, `/metrics` and image URLs; logs one line per
/// request and counts it.
struct ImageServiceResponder: HTTPResponder {
    typealias Context = ImageServiceRequestContext

    let service: ImageService
    let logger: Logger
    private let playgroundFiles: FileMiddleware<ImageServiceRequestContext, LocalFileSystem>?
    private let catalogue: ByteBuffer

    /// What the playground's page may load and run: its own script and styles, and images and
    /// answers from anywhere (the service it previews may be behind another name).
    static let playgroundPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src * data: blob:; connect-src *; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    init(service: ImageService, logger: Logger) {
        self.service = service
        self.logger = logger
        playgroundFiles = PlaygroundFiles.directory.map(PlaygroundFiles.middleware)
        if PlaygroundFiles.directory == nil {
            logger.warning("the playground's files are not beside the executable (Kingfisher_KingfisherServer.resources): / answers 404")
        }
        catalogue = ByteBuffer(data: service.playgroundCatalogue.json())
    }

    func respond(to request: Request, context: Context) async throws -> Response {
        let start = ContinuousClock.now
        var level: ServiceMetrics.ResultLevel?
        var response: Response
        do throws(ServiceError) {
            (response, level) = try await answer(request, context: context)
        } catch {
            response = Self.errorResponse(error)
        }
        // Browsers must take every answer for what its Content-Type says (an error's text is
        // never sniffed into HTML).
        response.headers[.xContentTypeOptions] = "nosniff"
        let bodyBytes = request.method == .head ? 0 : response.body.contentLength ?? 0
        let duration = ContinuousClock.now - start
        service.metrics.recordResponse(status: response.status.code, duration: duration, bodyBytes: bodyBytes)
        logger.info(
            "\(request.method) \(request.uri.path.prefix(300)) \(response.status.code)",
            metadata: [
                "status": "\(response.status.code)",
                "bytes": "\(bodyBytes)",
                "ms":
                    "\(String(format: "%.2f", Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1000))",
                "cache": "\(level?.rawValue ?? "-")",
            ])
        return response
    }

    private func answer(_ request: Request, context: Context) async throws(ServiceError) -> (Response, ServiceMetrics.ResultLevel?) {
        let path = Substring(request.uri.path)
        let isPurge = path.hasPrefix(ImageURLPath.purgePrefix + "/")
        if isPurge, request.method != .delete {
            throw ServiceError(
                .methodNotAllowed, "\(request.method) is not served here: a purge is DELETE", extraHeaders: [.allow: "DELETE"])
        }
        guard isPurge || request.method == .get || request.method == .head else {
            throw ServiceError(
                .methodNotAllowed, "\(request.method) is not served: use GET or HEAD", extraHeaders: [.allow: "GET, HEAD"])
        }
        // ConnectionRules closes the connection after a request with a body (read only up to
        // its limit, never handed on).
        if request.headers[.transferEncoding] != nil || (request.headers[.contentLength].flatMap(Int.init) ?? 0) > 0 {
            throw ServiceError(.contentTooLarge, "this service takes no request bodies")
        }
        guard path.utf8.count <= Self.maxPathLength else {
            throw ServiceError(.uriTooLong, "the path is \(path.utf8.count) bytes, over the limit of \(Self.maxPathLength)")
        }
        if isPurge { return (Self.text(.ok, try await service.purge(forPath: path)), nil) }
        if PlaygroundFiles.serves(path) { return (try await playgroundFile(request, context: context), nil) }
        switch path {
        case "/playground/catalogue.json":
            var headers = HTTPFields()
            headers[.contentType] = "application/json"
            headers[.cacheControl] = "no-cache"
            return (Response(status: .ok, headers: headers, body: .init(byteBuffer: catalogue)), nil)
        case "/healthz":
            return (Self.text(.ok, "ok"), nil)
        case "/metrics":
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            return (Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: service.metrics.text()))), nil)
        case _ where path.hasPrefix(ImageURLPath.infoPrefix + "/"):
            let (json, etag) = try await service.info(forPath: path)
            var headers = HTTPFields()
            headers[.contentType] = "application/json"
            headers[.eTag] = etag
            headers[.cacheControl] = "public, max-age=\(service.configuration.maxAge)"
            if let condition = request.headers[.ifNoneMatch], Self.matches(condition, etag: etag) {
                return (Response(status: .notModified, headers: headers), nil)
            }
            return (Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: json))), nil)
        default:
            let answer = try await service.image(forPath: path, accept: request.headers[.accept])
            return (imageResponse(answer, request: request), answer.level)
        }
    }

    /// A file of the playground page, through Hummingbird's file middleware.
    private func playgroundFile(_ request: Request, context: Context) async throws(ServiceError) -> Response {
        guard let playgroundFiles else {
            throw ServiceError(.notFound, "the playground's files are not installed beside this executable")
        }
        var response: Response
        do {
            response = try await playgroundFiles.handle(request, context: context) { _, _ in throw HTTPError(.notFound) }
        } catch let error as HTTPError {
            throw ServiceError(
                error.status, error.status == .notFound ? "no such file of the playground: \(request.uri.path.prefix(300))" : "\(error)")
        } catch {
            throw ServiceError(.internalServerError, "the playground's file \(request.uri.path.prefix(300)) cannot be read: \(error)")
        }
        // The files are UTF-8; the middleware names only the media type.
        if let type = response.headers[.contentType], type.hasPrefix("text/") || type.hasSuffix("javascript"), !type.contains("charset") {
            response.headers[.contentType] = type + "; charset=utf-8"
        }
        response.headers[.contentSecurityPolicy] = Self.playgroundPolicy
        response.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        return response
    }

    private func imageResponse(_ answer: ImageService.Answer, request: Request) -> Response {
        var headers = HTTPFields()
        headers[.eTag] = answer.image.etag
        var maxAge = service.configuration.maxAge
        if let expires = answer.expires {
            maxAge = min(maxAge, max(0, Int(expires.timeIntervalSinceNow.rounded(.down))))
        }
        headers[.cacheControl] = "public, max-age=\(maxAge)"
        if answer.variesWithAccept { headers[.vary] = "Accept" }
        if let maxBytes = answer.exceededMaxBytes {
            headers[Self.maxBytesExceeded] = "\(answer.image.body.readableBytes) bytes at the lowest quality, over \(maxBytes)"
        }
        if let condition = request.headers[.ifNoneMatch], Self.matches(condition, etag: answer.image.etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = answer.image.format.mimeType
        headers[.contentLength] = String(answer.image.body.readableBytes)
        if request.method == .head {
            return Response(status: .ok, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: answer.image.body))
    }

    /// Said on an answer whose processing asked `maxbytes(N)` and whose lowest quality is larger.
    static let maxBytesExceeded = HTTPField.Name("KF-Max-Bytes-Exceeded")!

    /// Whether an `If-None-Match` list names `etag` (weak comparison, RFC 9110 §13.1.2), or is `*`.
    static func matches(_ condition: String, etag: String) -> Bool {
        condition.split(separator: ",").contains { candidate in
            var tag = candidate.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == etag
        }
    }

    static func text(_ status: HTTPResponse.Status, _ line: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: line + "\n")))
    }

    static func errorResponse(_ error: ServiceError) -> Response {
        var response = text(error.status, error.message)
        if let retryAfter = error.retryAfter { response.headers[.retryAfter] = String(retryAfter) }
        for (name, value) in error.extraHeaders { response.headers[name] = value }
        return response
    }

    /// The longest path served: a source URL and a processing fit easily, and every path is
    /// kept as a cache key (and in the parsed-request memo), so its length is bounded.
    static let maxPathLength = 4096
}
