// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The downloader's transport, and the ones it replaced.
struct TransportSlot: @unchecked Sendable {
    // @unchecked: transports are Sendable; the array of existentials is only touched under the lock.
    var current: any ImageDownloaderTransport
    /// The connection settings `current` was made for, when a session configuration made it.
    var madeFor: ConnectionSettings?
    /// Transports replaced while downloads may still run on them; kept as long as the downloader
    /// (one per change of connection settings).
    var retired: [any ImageDownloaderTransport] = []

    /// Whether ``ImageDownloader/sessionConfiguration`` may replace `current`: the shared default,
    /// or a transport made for an earlier configuration (a transport given to `init` is the
    /// caller's and stays).
    var replaceable: Bool {
        madeFor != nil || (current as? AsyncHTTPClientTransport) === AsyncHTTPClientTransport.shared
    }
}

/// What of a session configuration needs a transport of its own.
struct ConnectionSettings: Equatable {
    var maxConnectionsPerHost: Int
    var proxy: AsyncHTTPClientTransport.Proxy
}

/// What a `URLSessionConfiguration` says that applies to each request.
struct SessionSettings: @unchecked Sendable {
    // @unchecked: the configuration is a class, copied in and never mutated after.
    var configuration = URLSessionConfiguration.ephemeral
    var additionalHeaders: [String: String] = [:]

    /// Adds the session's headers that `request` does not set itself.
    func apply(to request: inout URLRequest) {
        for (name, value) in additionalHeaders where request.value(forHTTPHeaderField: name) == nil {
            request.setValue(value, forHTTPHeaderField: name)
        }
    }
}

extension ImageDownloader {
    /// URLSession's default resource timeout: seven days, which means "not set".
    private static let sessionResourceTimeoutDefault: TimeInterval = 7 * 24 * 3600

    /// The session settings, as Kingfisher's `sessionConfiguration`, mapped onto this downloader
    /// and its transport when set. Default `URLSessionConfiguration.ephemeral`.
    ///
    /// - `httpAdditionalHeaders` are added to every request that does not set them itself.
    /// - `timeoutIntervalForResource`, when not URLSession's 7-day default, becomes
    ///   ``maxDownloadDuration``. (``downloadTimeout`` stays the idle timeout, as Kingfisher sets it
    ///   on each request over `timeoutIntervalForRequest`.)
    /// - `httpMaximumConnectionsPerHost` and the HTTP/HTTPS proxy of `connectionProxyDictionary`
    ///   (`HTTPEnable`/`HTTPProxy`/`HTTPPort`, `HTTPSEnable`/`HTTPSProxy`/`HTTPSPort`; HTTPS first)
    ///   give the downloader a transport of its own (an ``AsyncHTTPClientTransport``) unless it was
    ///   created with a transport, which then stays. Downloads already running finish on the
    ///   previous transport.
    /// - Other settings (cookies, URL cache, TLS versions, constrained-network access) have no
    ///   effect: AsyncHTTPClient has no counterpart.
    public var sessionConfiguration: URLSessionConfiguration {
        get { settings.withLock { $0.session.configuration }.copy() as! URLSessionConfiguration }
        set {
            let configuration = newValue.copy() as! URLSessionConfiguration
            var headers: [String: String] = [:]
            for (name, value) in configuration.httpAdditionalHeaders ?? [:] {
                if let name = name as? String { headers[name] = "\(value)" }
            }
            let resourceTimeout = configuration.timeoutIntervalForResource
            settings.withLock { settings in
                settings.session = SessionSettings(configuration: configuration, additionalHeaders: headers)
                if resourceTimeout > 0, resourceTimeout != Self.sessionResourceTimeoutDefault {
                    settings.maxDownloadDuration = resourceTimeout
                }
            }
            replaceTransport(for: configuration)
        }
    }

    /// A transport for `configuration`'s connection limit and proxy, when the current one may be
    /// replaced and those differ from what it was made for: a configuration that leaves them as
    /// URLSession's defaults keeps the shared transport and its connections.
    private func replaceTransport(for configuration: URLSessionConfiguration) {
        let defaults = URLSessionConfiguration.ephemeral
        let asked = ConnectionSettings(
            maxConnectionsPerHost: configuration.httpMaximumConnectionsPerHost,
            proxy: Self.proxy(in: configuration.connectionProxyDictionary))
        let unchanged = ConnectionSettings(maxConnectionsPerHost: defaults.httpMaximumConnectionsPerHost, proxy: .environment)
        let needed = transports.withLock { slot in
            slot.replaceable && asked != (slot.madeFor ?? unchanged)
        }
        guard needed else { return }
        let perHost = asked.maxConnectionsPerHost > 0 ? asked.maxConnectionsPerHost : 8
        // An unusable proxy setting keeps the transport there is; each request would fail anyway.
        guard let transport = try? AsyncHTTPClientTransport(configuration: .init(maxConnectionsPerHost: perHost, proxy: asked.proxy)) else {
            return
        }
        transports.withLock { slot in
            slot.retired.append(slot.current)
            slot.current = transport
            slot.madeFor = asked
        }
    }

    /// The proxy a `connectionProxyDictionary` names; the environment's when it names none, as
    /// URLSession uses the system's.
    static func proxy(in dictionary: [AnyHashable: Any]?) -> AsyncHTTPClientTransport.Proxy {
        guard let dictionary, !dictionary.isEmpty else { return .environment }
        func string(_ key: String) -> String? { dictionary[key].map { "\($0)" } }
        func enabled(_ key: String) -> Bool { ["1", "true"].contains(string(key)?.lowercased() ?? "") }
        for scheme in ["HTTPS", "HTTP"] where enabled("\(scheme)Enable") {
            guard let host = string("\(scheme)Proxy"), !host.isEmpty else { continue }
            let port = string("\(scheme)Port").flatMap { Int($0) }
            if let url = URL(string: "http://\(host)\(port.map { ":\($0)" } ?? "")") { return .server(url) }
        }
        return .none
    }
}
