// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Hummingbird
import NIOCore

/// Hummingbird's basic context, plus the request's channel: a request with a body is answered
/// and its connection closed, since Hummingbird would otherwise read (and wait for) the whole
/// body after the answer.
struct ImageServiceRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
