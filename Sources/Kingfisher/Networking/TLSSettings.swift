// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import NIOSSL

/// The TLS part of an ``AsyncHTTPClientTransport/Configuration``, its files read and checked
/// once: extra trusted authorities, the client certificate and key, and the pins.
struct TLSSettings: Sendable {
    private let additionalRoots: [NIOSSLCertificate]
    private let clientChain: [NIOSSLCertificate]
    private let clientKey: NIOSSLPrivateKey?
    /// Base64 SHA-256 digests of accepted SubjectPublicKeyInfos, per lowercased host.
    private let pins: [String: Set<String>]

    /// Nothing beyond the system's roots.
    static let system = TLSSettings(additionalRoots: [], clientChain: [], clientKey: nil, pins: [:])

    private init(
        additionalRoots: [NIOSSLCertificate], clientChain: [NIOSSLCertificate], clientKey: NIOSSLPrivateKey?,
        pins: [String: Set<String>]
    ) {
        self.additionalRoots = additionalRoots
        self.clientChain = clientChain
        self.clientKey = clientKey
        self.pins = pins
    }

    init(_ configuration: AsyncHTTPClientTransport.Configuration) throws(AsyncHTTPClientTransport.ConfigurationError) {
        additionalRoots =
            try configuration.additionalCertificateAuthoritiesFile.map { path throws(AsyncHTTPClientTransport.ConfigurationError) in
                try Self.certificates(in: path, role: "CA file")
            } ?? []
        if let client = configuration.clientCertificate {
            clientChain = try Self.certificates(in: client.certificateChainFile, role: "client certificate file")
            let key = try Self.privateKey(in: client.privateKeyFile)
            clientKey = key
            try Self.check(key, at: client.privateKeyFile, belongsTo: clientChain, at: client.certificateChainFile)
        } else {
            (clientChain, clientKey) = ([], nil)
        }
        var pins: [String: Set<String>] = [:]
        for (host, hostPins) in configuration.pinnedPublicKeys {
            for pin in hostPins {
                pins[host.lowercased(), default: []].insert(try Self.normalized(pin: pin, host: host))
            }
        }
        self.pins = pins
    }

    /// The pins of `host` (`nil` when it has none).
    func pins(for host: String) -> Set<String>? { pins[host.lowercased()] }

    /// The client configuration: with `verifyingChain` false BoringSSL accepts any chain (and
    /// checks no host name), for connections whose certificate is checked in another way.
    func clientConfiguration(verifyingChain: Bool) -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateVerification = verifyingChain ? .fullVerification : .none
        if !additionalRoots.isEmpty { tls.additionalTrustRoots = [.certificates(additionalRoots)] }
        tls.certificateChain = clientChain.map { .certificate($0) }
        tls.privateKey = clientKey.map { .privateKey($0) }
        return tls
    }

    private static func contents(of path: String, role: String) throws(AsyncHTTPClientTransport.ConfigurationError) -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .init("the \(role) \(path) does not exist")
        }
        guard !isDirectory.boolValue, let data = FileManager.default.contents(atPath: path) else {
            throw .init("the \(role) \(path) cannot be read")
        }
        return Array(data)
    }

    private static func certificates(
        in path: String, role: String
    ) throws(AsyncHTTPClientTransport.ConfigurationError) -> [NIOSSLCertificate] {
        let bytes = try contents(of: path, role: role)
        guard let certificates = try? NIOSSLCertificate.fromPEMBytes(bytes), !certificates.isEmpty else {
            throw .init("the \(role) \(path) holds no PEM certificate")
        }
        return certificates
    }

    private static func privateKey(in path: String) throws(AsyncHTTPClientTransport.ConfigurationError) -> NIOSSLPrivateKey {
        let bytes = try contents(of: path, role: "private key file")
        guard let key = try? NIOSSLPrivateKey(bytes: bytes, format: .pem) else {
            throw .init("the private key file \(path) holds no unencrypted PEM private key")
        }
        return key
    }

    /// BoringSSL refuses a key that does not match the certificate when a context is made with
    /// both, which is the check; the context itself is dropped.
    private static func check(
        _ key: NIOSSLPrivateKey, at keyPath: String, belongsTo chain: [NIOSSLCertificate],
        at chainPath: String
    ) throws(AsyncHTTPClientTransport.ConfigurationError) {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateChain = chain.map { .certificate($0) }
        tls.privateKey = .privateKey(key)
        guard (try? NIOSSLContext(configuration: tls)) != nil else {
            throw .init("the private key in \(keyPath) does not belong to the certificate in \(chainPath)")
        }
    }

    /// `pin` as plain base64, checked to be a SHA-256 digest.
    private static func normalized(pin: String, host: String) throws(AsyncHTTPClientTransport.ConfigurationError) -> String {
        let base64 = pin.hasPrefix("sha256//") ? String(pin.dropFirst("sha256//".count)) : pin
        guard let digest = Data(base64Encoded: base64), digest.count == 32 else {
            throw .init("the pin '\(pin)' for \(host) is not sha256//BASE64 of a 32-byte SHA-256 digest")
        }
        return digest.base64EncodedString()
    }
}
