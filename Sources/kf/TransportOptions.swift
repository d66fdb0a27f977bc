// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import ArgumentParser
import Foundation
import Kingfisher

/// The proxy and TLS flags of `kf get` and `kf prefetch`, turned into the downloader's transport.
struct TransportOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Proxy for http and https URLs, 'http://[user:password@]host[:port]', or 'none' (default: http_proxy, https_proxy and no_proxy from the environment; no_proxy also applies to --proxy).",
            valueName: "url"))
    var proxy: String?

    @Option(help: ArgumentHelp("PEM file of certificate authorities trusted in addition to the system's.", valueName: "path"))
    var cacert: String?

    @Option(help: ArgumentHelp("PEM client certificate (and chain) for servers that ask for one.", valueName: "path"))
    var cert: String?

    @Option(help: ArgumentHelp("PEM private key of --cert (default: read from the --cert file).", valueName: "path"))
    var key: String?

    @Option(
        help: ArgumentHelp(
            "Accept from HOST only a certificate with this public key, 'HOST=sha256//BASE64' (repeatable; self-signed certificates pass).",
            valueName: "host=sha256//base64"))
    var pin: [String] = []

    func validate() throws {
        if key != nil && cert == nil { throw ValidationError("--key needs --cert") }
        _ = try configuration()
    }

    /// Whether any flag is given: without one the shared transport does.
    private var isDefault: Bool { proxy == nil && cacert == nil && cert == nil && pin.isEmpty }

    /// The transport for these flags, or exits with ``ExitStatus/noInput`` naming the file that
    /// cannot be used.
    func transport() -> any ImageDownloaderTransport {
        guard !isDefault else { return AsyncHTTPClientTransport.shared }
        do {
            return try AsyncHTTPClientTransport(configuration: configuration())
        } catch {
            exitWithError("\(error)", status: ExitStatus.noInput)
        }
    }

    private func configuration() throws -> AsyncHTTPClientTransport.Configuration {
        AsyncHTTPClientTransport.Configuration(
            proxy: try proxySetting(),
            additionalCertificateAuthoritiesFile: cacert,
            clientCertificate: cert.map { AsyncHTTPClientTransport.ClientCertificate(certificateChainFile: $0, privateKeyFile: key) },
            pinnedPublicKeys: try pins())
    }

    private func proxySetting() throws -> AsyncHTTPClientTransport.Proxy {
        guard let proxy else { return .environment }
        if proxy == "none" { return .none }
        let text = proxy.contains("://") ? proxy : "http://\(proxy)"
        guard let url = URL(string: text), url.host != nil else {
            throw ValidationError("--proxy takes http://[user:password@]host[:port] or 'none', got '\(proxy)'")
        }
        // As curl, the environment's no_proxy still names hosts reached directly.
        let environment = ProcessInfo.processInfo.environment
        return .server(url, bypass: environment["no_proxy"] ?? environment["NO_PROXY"] ?? "")
    }

    private func pins() throws -> [String: Set<String>] {
        var pins: [String: Set<String>] = [:]
        for item in pin {
            guard let equals = item.firstIndex(of: "="), equals != item.startIndex else {
                throw ValidationError("--pin takes HOST=sha256//BASE64, got '\(item)'")
            }
            pins[String(item[..<equals]), default: []].insert(String(item[item.index(after: equals)...]))
        }
        return pins
    }
}
