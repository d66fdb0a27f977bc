// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import NIOCore
import NIOHTTP1

/// The rules every client connection is held to, between NIO's HTTP/1 parser and Hummingbird,
/// where the protocol version and the raw framing are still known:
///
/// - it is counted in the ``ConnectionRegistry`` (busy from a request's head until its answer
///   ends), which may close the longest-idle connection to make room or refuse this one (`503`);
/// - a request that ends the connection (`Connection: close`, HTTP/1.0 without keep-alive, or
///   a request with a body, which the service never takes) reaches Hummingbird marked
///   `Connection: close`, its answer says so, and nothing sent after it is served;
/// - a body is never handed on: it is read and dropped up to `maxBodyBytes` (so that a client
///   writing a small body before it reads sees the answer rather than a reset), then reading
///   stops, and the connection closes when the body ends or ``lingerTime`` after the answer. A
///   client flooding bodies stalls on TCP flow control meanwhile, at no cost to the service, and
///   gets one connection per ``lingerTime`` at most, instead of reconnecting as fast as the
///   service can answer;
/// - an HTTP/1.1 request without `Host` is answered `400` and the connection closed;
/// - a client that closes its side has gone away: the connection closes, and its request is
///   cancelled.
final class ConnectionRules: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// The longest a connection stays open after its last answer while its client still sends
    /// a body.
    static let lingerTime = TimeAmount.seconds(2)

    private let registry: ConnectionRegistry
    private let metrics: ServiceMetrics
    private let maxBodyBytes: Int
    private let retryAfter: Int

    /// The connection's id in the registry, once admitted.
    private var id: UInt64?
    /// Requests handed on whose answers have not ended.
    private var answersPending = 0
    /// Whether the request handed on last is the connection's last.
    private var closing = false
    /// Whether the current request's parts are handed on (its head was).
    private var forwarding = false
    /// Whether the current request's body is still arriving, to be dropped.
    private var receivingBody = false
    private var bodyBytesRead = 0
    /// Reads are held back: the body passed `maxBodyBytes`.
    private var readingPaused = false
    /// The connection's last answer has been written.
    private var lastAnswerWritten = false
    /// An answer of this handler's own (`400`) to write once the answers before it are out.
    private var ownAnswer: (status: HTTPResponseStatus, message: String)?
    private var linger: Scheduled<Void>?

    init(registry: ConnectionRegistry, metrics: ServiceMetrics, maxBodyBytes: Int, retryAfter: Int) {
        self.registry = registry
        self.metrics = metrics
        self.maxBodyBytes = maxBodyBytes
        self.retryAfter = retryAfter
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { admit(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        context.fireChannelActive()
        admit(context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let id { registry.remove(id) }
        id = nil
        linger?.cancel()
        context.fireChannelInactive()
    }

    /// A client that shuts its side has gone away, as Go's server takes it: the connection
    /// closes, which cancels the request it was waiting for (Hummingbird keeps half-closed
    /// connections open until their answer, which nobody would read).
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    private func admit(context: ChannelHandlerContext) {
        guard id == nil, !closing else { return }
        let (id, admission) = registry.admit(context.channel)
        switch admission {
        case .admitted:
            self.id = id
        case .admittedClosing(let idle):
            self.id = id
            metrics.recordConnectionClosedForRoom()
            idle.close(promise: nil)
        case .refused:
            metrics.recordConnectionRefused()
            closing = true
            let answer = "the service is busy: \(registry.limit) connections have requests in flight"
            writeOwnAnswer(.serviceUnavailable, answer, extraHeaders: [("Retry-After", String(retryAfter))], context: context)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(var head):
            // Past the connection's last request nothing is served; its body still counts.
            guard !closing, ownAnswer == nil else {
                forwarding = false
                receivingBody = true
                return
            }
            if let id { registry.markBusy(id) }
            if (head.version.major, head.version.minor) >= (1, 1), !head.headers.contains(name: "host") {
                closing = true
                refuse(.badRequest, "an HTTP/1.1 request must name its Host", context: context)
                return
            }
            let declaresBody =
                head.headers.contains(name: "transfer-encoding")
                || (head.headers.first(name: "content-length").flatMap { Int($0) } ?? 0) > 0
            if declaresBody || !head.isKeepAlive {
                closing = true
                head.headers.replaceOrAdd(name: "connection", value: "close")
            }
            receivingBody = declaresBody
            forwarding = true
            answersPending += 1
            context.fireChannelRead(wrapInboundOut(.head(head)))
        case .body(let buffer):
            bodyBytesRead += buffer.readableBytes
            if bodyBytesRead > maxBodyBytes { readingPaused = true }
        case .end(let trailers):
            receivingBody = false
            if lastAnswerWritten { context.close(promise: nil) }
            if forwarding { context.fireChannelRead(wrapInboundOut(.end(trailers))) }
            forwarding = false
        }
    }

    func read(context: ChannelHandlerContext) {
        guard !readingPaused else { return }
        context.read()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        var part = unwrapOutboundIn(data)
        let isLastAnswer = closing && answersPending == 1 && ownAnswer == nil
        if isLastAnswer, case .head(var head) = part {
            head.headers.replaceOrAdd(name: "connection", value: "close")
            part = .head(head)
        }
        guard case .end = part else {
            context.write(wrapOutboundOut(part), promise: promise)
            return
        }
        answersPending -= 1
        guard answersPending == 0 else {
            context.write(wrapOutboundOut(part), promise: promise)
            return
        }
        if !closing {
            context.write(wrapOutboundOut(part), promise: promise)
            if let id { registry.markIdle(id) }
            return
        }
        if let ownAnswer {
            context.write(wrapOutboundOut(part), promise: promise)
            writeOwnAnswer(ownAnswer.status, ownAnswer.message, context: context)
            return
        }
        let written = promise ?? context.eventLoop.makePromise()
        context.write(wrapOutboundOut(part), promise: written)
        written.futureResult.assumeIsolated().whenComplete { _ in self.lastAnswerSent(context: context) }
    }

    /// Closes the connection once its last answer is out: at once, or when the body the client
    /// is still sending ends, passes the limit, or has had ``lingerTime``.
    private func lastAnswerSent(context: ChannelHandlerContext) {
        lastAnswerWritten = true
        guard receivingBody else {
            context.close(promise: nil)
            return
        }
        linger = context.eventLoop.assumeIsolated().scheduleTask(in: Self.lingerTime) {
            context.close(promise: nil)
        }
    }

    /// Answers the current request with `status` itself, after the answers before it.
    private func refuse(_ status: HTTPResponseStatus, _ message: String, context: ChannelHandlerContext) {
        guard answersPending == 0 else {
            ownAnswer = (status, message)
            return
        }
        writeOwnAnswer(status, message, context: context)
    }

    /// Writes a plain-text answer of this handler's own, then closes the connection.
    private func writeOwnAnswer(
        _ status: HTTPResponseStatus, _ message: String, extraHeaders: [(String, String)] = [], context: ChannelHandlerContext
    ) {
        let body = ByteBuffer(string: message + "\n")
        var headers = HTTPHeaders([
            ("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", String(body.readableBytes)),
            ("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff"), ("Connection", "close"),
        ])
        headers.add(contentsOf: extraHeaders)
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            self.lastAnswerSent(context: context)
        }
    }
}
