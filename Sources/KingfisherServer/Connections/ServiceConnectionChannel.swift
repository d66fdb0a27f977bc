// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// A client connection of the service: Hummingbird's HTTP/1 channel, with ``ConnectionRules``
/// right after NIO's HTTP/1 parser.
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

    func handle(value: Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}
