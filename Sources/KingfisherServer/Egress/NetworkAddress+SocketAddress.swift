// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import NIOCore

extension NetworkAddress {
    /// The socket address of this address and `port`, to connect to exactly what was checked.
    func socketAddress(port: Int) -> SocketAddress? {
        try? SocketAddress(packedIPAddress: ByteBuffer(bytes: bytes), port: port)
    }
}
