// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import AsyncHTTPClient
import Foundation

/// An HTTP proxy server, parsed from a proxy URL.
struct ProxyServer: Sendable, Hashable {
    var host: String
    var port: Int
    var user: String?
    var password: String?

    /// `host:port`, for messages.
    var endpoint: String { "\(host):\(port)" }

    /// Parses `text` as curl does: `[http://][user:password@]host[:port]`, port 1080 by default;
    /// `source` names the setting it came from in the error.
    init(parsing text: String, source: String) throws(AsyncHTTPClientTransport.ConfigurationError) {
        let withScheme = text.contains("://") ? text : "http://" + text
        guard let components = URLComponents(string: withScheme), let host = components.host, !host.isEmpty,
            components.path.isEmpty || components.path == "/"
        else {
            throw .init("\(source) '\(text)' is not a proxy URL: use http://[user:password@]host[:port]")
        }
        guard components.scheme?.lowercased() == "http" else {
            throw .init("\(source) '\(text)' has scheme '\(components.scheme ?? "")': only http:// proxies are supported")
        }
        self.host = host
        port = components.port ?? 1080
        user = components.user
        password = components.password
    }

    /// The same proxy for AsyncHTTPClient, credentials as basic authorization.
    var asyncHTTPClientProxy: HTTPClient.Configuration.Proxy {
        .server(host: host, port: port, authorization: user.map { .basic(username: $0, password: password ?? "") })
    }
}

/// Which proxy, if any, each request goes through, from a ``AsyncHTTPClientTransport/Proxy``
/// setting and the environment.
package struct ProxyRoutes: Sendable {
    private typealias Route = Result<ProxyServer, AsyncHTTPClientTransport.ConfigurationError>

    private let http: Route?
    private let https: Route?
    private let bypass: NoProxyList

    /// - Parameter environment: The process environment, read for ``AsyncHTTPClientTransport/Proxy/environment``.
    init(_ setting: AsyncHTTPClientTransport.Proxy, environment: [String: String]) {
        switch setting {
        case .none:
            (http, https, bypass) = (nil, nil, .none)
        case .server(let url, let bypassList):
            let route = Route { () throws(AsyncHTTPClientTransport.ConfigurationError) in
                try ProxyServer(parsing: url.absoluteString, source: "the proxy")
            }
            (http, https, bypass) = (route, route, NoProxyList(bypassList))
        case .environment:
            func variable(_ name: String) -> (name: String, value: String)? { Self.variable(name, in: environment) }
            func route(_ name: String) -> Route? {
                variable(name).map { found in
                    Route { () throws(AsyncHTTPClientTransport.ConfigurationError) in
                        try ProxyServer(parsing: found.value, source: found.name)
                    }
                }
            }
            (http, https, bypass) = (route("http_proxy"), route("https_proxy"), NoProxyList(variable("no_proxy")?.value ?? ""))
        }
    }

    /// The variable `name` (lowercase) or, when that is unset or empty, its uppercase form, as
    /// curl reads them: lowercase first, since `HTTP_PROXY` can be set by a CGI request's
    /// `Proxy:` header.
    private static func variable(_ name: String, in environment: [String: String]) -> (name: String, value: String)? {
        for name in [name, name.uppercased()] {
            if let value = environment[name], !value.isEmpty { return (name, value) }
        }
        return nil
    }

    /// The variable through which `environment` names a proxy for `http` or `https` URLs, as
    /// ``AsyncHTTPClientTransport/Proxy/environment`` reads them; `nil` when none does.
    package static func proxyVariable(in environment: [String: String]) -> String? {
        (variable("http_proxy", in: environment) ?? variable("https_proxy", in: environment))?.name
    }

    /// Throws the error of a proxy setting that does not parse.
    func validate() throws(AsyncHTTPClientTransport.ConfigurationError) {
        _ = try http?.get()
        _ = try https?.get()
    }

    /// The proxy for a request to `url`, or `nil` to go directly; throws when the proxy that
    /// applies does not parse.
    func proxy(for url: URL) throws(AsyncHTTPClientTransport.ConfigurationError) -> ProxyServer? {
        let isHTTPS = url.scheme?.lowercased() == "https"
        guard let route = isHTTPS ? https : http,
            !bypass.matches(host: url.host ?? "", port: url.port ?? (isHTTPS ? 443 : 80))
        else { return nil }
        return try route.get()
    }
}
