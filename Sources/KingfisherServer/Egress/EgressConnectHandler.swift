// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import NIOCore
import NIOPosix

/// One connection to the ``EgressProxy``: reads a `CONNECT host:port` request, resolves the
/// host, refuses non-public addresses (unless the rule allows them for that target), connects
/// to the first checked address that answers, answers `200` and becomes a ``TunnelGlue``.
final class EgressConnectHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// What every connection checks.
    struct Rule: Sendable {
        /// The `Proxy-Authorization` value the service's transport sends.
        var authorization: String
        var allowsPrivateAddresses: @Sendable (_ host: String, _ port: Int) -> Bool
        var refusals: EgressProxy.Refusals
    }

    /// The largest request head read.
    private static let maxHeadBytes = 8192
    private let rule: Rule
    /// What the client sent: the request head, then whatever follows it before the tunnel is up.
    private var received = ByteBuffer()
    private var started = false

    init(rule: Rule) {
        self.rule = rule
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        // Bytes after the head wait here until the tunnel is up, and are sent through it first.
        received.writeBuffer(&bytes)
        guard !started else { return }
        let view = received.readableBytesView
        guard let end = view.firstRange(of: Array("\r\n\r\n".utf8)) else {
            if received.readableBytes > Self.maxHeadBytes { answer(431, "the request head is too large", context: context) }
            return
        }
        started = true
        let text = String(decoding: view[view.startIndex..<end.lowerBound], as: UTF8.self)
        received.moveReaderIndex(to: end.upperBound)
        start(text, context: context)
    }

    private func start(_ text: String, context: ChannelHandlerContext) {
        let lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)
        let request = lines.first?.split(separator: " ") ?? []
        guard request.count == 3, request[0] == "CONNECT", let target = Self.target(request[1]) else {
            return answer(405, "only CONNECT host:port is served", context: context)
        }
        let authorized = lines.dropFirst().contains { line in
            guard let colon = line.firstIndex(of: ":") else { return false }
            return line[..<colon].lowercased() == "proxy-authorization"
                && line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces) == rule.authorization
        }
        guard authorized else { return answer(407, "this proxy serves only its service", context: context) }

        let resolved = context.eventLoop.makePromise(of: [NetworkAddress].self)
        HostResolver.addresses(of: target.host) { resolved.completeWith($0.mapError { $0 }) }
        resolved.futureResult.assumeIsolated().whenComplete { result in
            switch result {
            case .failure(let error):
                self.refuse(502, "\(error)", target: target, context: context)
            case .success(let addresses):
                if !self.rule.allowsPrivateAddresses(target.host, target.port),
                    let address = addresses.first(where: { $0.nonPublicKind != nil }), let kind = address.nonPublicKind
                {
                    return self.refuse(403, "\(target.host) resolves to \(address), a \(kind) address", target: target, context: context)
                }
                self.connect(to: addresses[...], target: target, context: context)
            }
        }
    }

    /// Connects to the first of `addresses` that answers, each within 3 s.
    private func connect(to addresses: ArraySlice<NetworkAddress>, target: (host: String, port: Int), context: ChannelHandlerContext) {
        let port = target.port
        guard let address = addresses.first, let socketAddress = address.socketAddress(port: port) else {
            return refuse(502, "\(target.host) has no address to connect to", target: target, context: context)
        }
        ClientBootstrap(group: context.eventLoop)
            .connectTimeout(.seconds(3))
            .channelOption(.allowRemoteHalfClosure, value: true)
            .connect(to: socketAddress)
            .assumeIsolated()
            .whenComplete { result in
                switch result {
                case .failure(let error):
                    if addresses.count > 1 {
                        self.connect(to: addresses.dropFirst(), target: target, context: context)
                    } else {
                        self.refuse(
                            502, "cannot connect to \(target.host) (\(address)) port \(port): \(error)", target: target, context: context)
                    }
                case .success(let outbound):
                    self.join(context: context, outbound: outbound)
                }
            }
    }

    /// Answers `200` and joins the two channels.
    private func join(context: ChannelHandlerContext, outbound: any Channel) {
        let (inner, outer) = TunnelGlue.pair()
        do {
            try outbound.pipeline.syncOperations.addHandler(outer)
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: "HTTP/1.1 200 Connection established\r\n\r\n")), promise: nil)
            try context.pipeline.syncOperations.addHandler(inner, position: .after(self))
            if received.readableBytes > 0 { outbound.writeAndFlush(received, promise: nil) }
            context.pipeline.syncOperations.removeHandler(self, promise: nil)
        } catch {
            outbound.close(promise: nil)
            context.close(promise: nil)
        }
    }

    /// Answers `status` with `reason`, and keeps the reason for the service.
    private func refuse(_ status: Int, _ reason: String, target: (host: String, port: Int), context: ChannelHandlerContext) {
        rule.refusals.record(.init(status: status, reason: reason), for: "\(target.host):\(target.port)")
        answer(status, reason, context: context)
    }

    private func answer(_ status: Int, _ reason: String, context: ChannelHandlerContext) {
        started = true
        let body = reason + "\n"
        let text = "HTTP/1.1 \(status) Refused\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: text))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }

    /// `host` and `port` of `host:port` or `[v6]:port`.
    private static func target(_ text: Substring) -> (host: String, port: Int)? {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (1...65_535).contains(port)
        else { return nil }
        var host = text[..<colon]
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        guard !host.isEmpty else { return nil }
        return (host.lowercased(), port)
    }
}
