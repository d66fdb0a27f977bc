// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// A client connection of the service: Hummingbird's HTTP/1 channel, with ``ConnectionRules``
/// right after NIO's HTTP/1 parser, whose requests are cancelled when the client goes away.
struct ServiceConnectionChannel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let http1: HTTP1Channel
    let makeRules: @Sendable () -> ConnectionRules

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        http1.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let parser = try pipeline.context(handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(makeRules(), position: .after(parser.handler))
            return value
        }
    }

    /// Serves the connection's requests in a task of their own, cancelled when the connection
    /// closes: a client that goes away mid-request cancels the work only it waits for.
    func handle(value: Value, logger: Logger) async {
        let requests = Task { await http1.handle(value: value, logger: logger) }
        value.channel.closeFuture.whenComplete { _ in requests.cancel() }
        await withTaskCancellationHandler {
            await requests.value
        } onCancel: {
            requests.cancel()
        }
    }
}
