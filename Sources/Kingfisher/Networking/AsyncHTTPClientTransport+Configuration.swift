// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

extension AsyncHTTPClientTransport {
    /// The settings of an ``AsyncHTTPClientTransport``: connection pooling, the proxy, and whom
    /// TLS trusts and shows. The default value is what ``AsyncHTTPClientTransport/shared`` uses:
    /// 8 connections per host, the proxy from the environment, the system's root certificates,
    /// no client certificate and no pins.
    ///
    /// Files are read when the transport is made, which throws a ``ConfigurationError`` naming
    /// the file and what is wrong with it.
    public struct Configuration: Sendable, Hashable {
        /// HTTP/1.1 connections kept per host (HTTP/2 multiplexes on one). Default 8.
        public var maxConnectionsPerHost: Int

        /// Where requests go. Default ``Proxy/environment``.
        public var proxy: Proxy

        /// A PEM file of certificate authorities trusted in addition to the system's root
        /// certificates (unlike curl's `--cacert`, which replaces them), for servers whose
        /// certificates a private CA issued. Default `nil`: the system's roots only.
        public var additionalCertificateAuthoritiesFile: String?

        /// The certificate and key shown to servers that ask for one (mutual TLS). Default `nil`.
        public var clientCertificate: ClientCertificate?

        /// Public keys accepted per host, as base64 SHA-256 digests of the certificate's
        /// SubjectPublicKeyInfo (what curl's `--pinnedpubkey sha256//…` takes; the `sha256//`
        /// prefix is optional), keyed by host name or IP address. Default empty.
        ///
        /// For a pinned host the server's own certificate must carry one of these keys and name
        /// the host; its issuer does not matter, so a self-signed certificate is accepted (unlike
        /// the downloader's `trustedHosts`, which accept any certificate), and one a public CA
        /// issued for another key is refused. Pins apply to `https` requests and take precedence
        /// over `trustedHosts`.
        public var pinnedPublicKeys: [String: Set<String>]
        /// Whether plain `http` requests through a proxy go through a `CONNECT` tunnel too, not
        /// in absolute form: for a proxy that only tunnels, such as the image service's egress
        /// check. Default `false`.
        package var tunnelsPlainHTTP = false
        /// Whether a connection that fails is tried again until the connect timeout (3 s), as
        /// AsyncHTTPClient does by default; `false` reports the first failure, for a proxy whose
        /// refusal is final. Default `true`.
        package var retriesFailedConnections = true

        /// Creates a configuration; every parameter defaults to the property's default.
        public init(
            maxConnectionsPerHost: Int = 8, proxy: Proxy = .environment,
            additionalCertificateAuthoritiesFile: String? = nil,
            clientCertificate: ClientCertificate? = nil,
            pinnedPublicKeys: [String: Set<String>] = [:]
        ) {
            self.maxConnectionsPerHost = maxConnectionsPerHost
            self.proxy = proxy
            self.additionalCertificateAuthoritiesFile = additionalCertificateAuthoritiesFile
            self.clientCertificate = clientCertificate
            self.pinnedPublicKeys = pinnedPublicKeys
        }
    }

    /// Which HTTP proxy requests go through. `https` requests go through a `CONNECT` tunnel (TLS
    /// end to end); plain `http` requests are sent to the proxy in absolute form
    /// (`GET http://host/path`), as curl sends them, so a proxy that tunnels only to port 443
    /// carries both.
    public enum Proxy: Sendable, Hashable {
        /// The proxies of the environment variables `http_proxy` (for `http` URLs),
        /// `https_proxy` (for `https` URLs) and `no_proxy` (hosts that bypass them, see
        /// ``server(_:bypass:)``), or their uppercase forms when the lowercase one is unset, as
        /// curl reads them; read when the transport is made. An empty variable counts as unset.
        case environment
        /// No proxy: every request goes directly.
        case none
        /// Every request through the proxy at `url` (`http://[user:password@]host[:port]`, port
        /// 1080 when omitted as in curl; credentials become basic `Proxy-Authorization`), except
        /// requests to hosts in `bypass`: a `NO_PROXY` list, comma-separated host names and
        /// domain suffixes (`example.com` and `.example.com` both match its subdomains) and IP
        /// addresses, each with an optional `:port`, or `*` for every host. Loopback addresses are
        /// not bypassed unless listed. Default bypass: none.
        case server(URL, bypass: String = "")
    }

    /// A client certificate chain and its private key, both PEM files.
    public struct ClientCertificate: Sendable, Hashable {
        /// The PEM file holding the certificate, then any intermediates.
        public var certificateChainFile: String
        /// The PEM file holding the unencrypted private key of the certificate.
        public var privateKeyFile: String

        /// - Parameters:
        ///   - certificateChainFile: The PEM certificate chain, leaf first.
        ///   - privateKeyFile: The PEM private key. Default `nil`: read from `certificateChainFile`.
        public init(certificateChainFile: String, privateKeyFile: String? = nil) {
            self.certificateChainFile = certificateChainFile
            self.privateKeyFile = privateKeyFile ?? certificateChainFile
        }
    }

    /// A setting the transport cannot use: a missing or invalid file, a key that does not belong
    /// to its certificate, a pin or proxy URL that does not parse. The description is one line
    /// naming the file or setting and what is wrong.
    public struct ConfigurationError: Error, CustomStringConvertible, LocalizedError {
        /// The one-line explanation.
        public let description: String

        /// The same text as ``description``.
        public var errorDescription: String? { description }

        init(_ description: String) {
            self.description = description
        }
    }
}
