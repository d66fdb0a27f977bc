// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Crypto
import Foundation

/// Signs and checks image URL paths: base64url (unpadded) of HMAC-SHA256, keyed with the UTF-8
/// bytes of the key, over the path after the signature segment, from its leading `/`
/// (`/-/aHR0cDovL2E.webp` in `/SIGNATURE/-/aHR0cDovL2E.webp`), exactly as sent.
public struct URLSigner: Sendable {
    private let keyBytes: Data
    private var key: SymmetricKey { SymmetricKey(data: keyBytes) }

    /// A signer with `key`; its UTF-8 bytes are the HMAC key.
    public init(key: String) {
        keyBytes = Data(key.utf8)
    }

    /// The signature segment for `path` (which starts with `/`).
    public func signature(forPath path: some StringProtocol) -> String {
        Base64URL.encode(HMAC<SHA256>.authenticationCode(for: Data(path.utf8), using: key))
    }

    /// Whether `signature` is `path`'s, compared in constant time.
    public func isValid(signature: some StringProtocol, forPath path: some StringProtocol) -> Bool {
        guard let code = Base64URL.decode(signature), code.count == SHA256.byteCount else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: Data(path.utf8), using: key)
    }
}
