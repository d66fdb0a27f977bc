// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import NIOCore
import NIOSSL

/// Checks a TLS connection to a pinned host: its certificate must carry one of the host's
/// pinned public keys and name the host. Runs once the handshake is done (BoringSSL verified no
/// chain) and before any request is sent on the connection.
///
/// Only the server's own certificate counts, as with curl's `--pinnedpubkey`: the rest of an
/// unverified chain proves nothing.
struct PinnedKeyCheck: Sendable {
    /// The connection's certificate has none of the pinned keys.
    struct Mismatch: Error {
        var host: String
        /// The base64 SHA-256 of the presented certificate's SubjectPublicKeyInfo.
        var presented: String
    }

    /// The connection's certificate does not name the host.
    struct WrongHost: Error {
        var host: String
    }

    let host: String
    let pins: Set<String>

    /// Checks the certificate of `channel`'s TLS handler; fails the future with ``Mismatch`` or
    /// ``WrongHost`` (which close the connection unused).
    func verify(_ channel: any Channel) -> EventLoopFuture<Void> {
        channel.nioSSL_peerCertificate().flatMapThrowing { certificate in
            guard let certificate else { throw Mismatch(host: host, presented: "(no certificate)") }
            let digest = try Self.publicKeyDigest(of: certificate)
            guard pins.contains(digest) else { throw Mismatch(host: host, presented: digest) }
            guard Self.certificate(certificate, names: host) else { throw WrongHost(host: host) }
        }
    }

    /// The base64 SHA-256 of `certificate`'s DER SubjectPublicKeyInfo: an HPKP / curl pin.
    static func publicKeyDigest(of certificate: NIOSSLCertificate) throws -> String {
        Data(SHA256.digest(try certificate.extractPublicKey().toSPKIBytes())).base64EncodedString()
    }

    /// Whether `certificate` is for `host` (RFC 6125): an IP address must be among its IP
    /// subject alternative names, a host name among its DNS ones (`*.` standing for one leftmost
    /// label); only without alternative names does the common name count.
    static func certificate(_ certificate: NIOSSLCertificate, names host: String) -> Bool {
        let names = certificate._subjectAlternativeNames()
        if let address = ipAddressBytes(host) {
            return names.contains { $0.nameType == .ipAddress && Array($0.contents) == address }
        }
        let dnsNames = names.filter { $0.nameType == .dnsName }.map { String(decoding: $0.contents, as: UTF8.self) }
        let candidates = names.isEmpty ? certificate.subjectName.filter { $0.type == .commonName }.map(\.value) : dnsNames
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "."))
        return candidates.contains { pattern in
            let pattern = pattern.lowercased()
            guard pattern.hasPrefix("*.") else { return pattern == host }
            guard let dot = host.firstIndex(of: ".") else { return false }
            return host[dot...] == pattern.dropFirst()
        }
    }

    /// The 4 or 16 bytes of an IP address literal (with or without brackets), or `nil`.
    private static func ipAddressBytes(_ host: String) -> [UInt8]? {
        let literal = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, literal, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        if inet_pton(AF_INET6, literal, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }
}
