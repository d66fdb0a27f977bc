// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import NIOCore
import NIOHTTP1

/// Rewrites each request head's target from origin form (`/path?query`) to absolute form
/// (`http://host/path?query`, the host from its `Host` field): the form a forward proxy is sent
/// a plain http request in (RFC 9112 §3.2.2). AsyncHTTPClient always opens a `CONNECT` tunnel
/// through a proxy, which proxies that tunnel only to TLS ports (squid's default, tinyproxy's
/// `ConnectPort 443`) refuse; plain http requests are therefore sent to the proxy as if it
/// were the origin, through this handler.
final class AbsoluteFormTarget: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPClientRequestPart
    typealias OutboundOut = HTTPClientRequestPart

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .head(var head) = unwrapOutboundIn(data), head.uri.hasPrefix("/"), let host = head.headers.first(name: "host")
        else {
            context.write(data, promise: promise)
            return
        }
        head.uri = "http://\(host)\(head.uri)"
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }

    /// Puts the handler on `channel`, an HTTP/1 connection AsyncHTTPClient has set up, just before
    /// the request encoder, where request heads are still values.
    static func install(on channel: any Channel) -> EventLoopFuture<Void> {
        channel.eventLoop.submit {
            let pipeline = channel.pipeline.syncOperations
            let encoder = try pipeline.handler(type: HTTPRequestEncoder.self)
            try pipeline.addHandler(AbsoluteFormTarget(), position: .after(encoder))
        }
    }
}
