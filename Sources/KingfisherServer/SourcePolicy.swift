import Foundation

/// Which sources the service fetches: the allowed URL prefixes, and no loopback, private or
/// link-local addresses unless allowed, checked for the source and for every redirect.
///
/// The check resolves the host itself before the download connects; a name whose answer
/// changes between the check and the connection (DNS rebinding) is not caught here.
struct SourcePolicy: Sendable {
    /// Prefixes a source must start with; empty: any http(s) URL.
    var allowedPrefixes: [String]
    /// Whether sources may be on loopback, private and link-local addresses.
    var allowsPrivateNetworks: Bool
    /// Prefixes whose sources may be on private networks even when others may not.
    var trustedPrivatePrefixes: [String]

    /// Why the service refuses to fetch a URL; the text is the one-line answer (`403`).
    struct Refusal: Error, Sendable, CustomStringConvertible {
        var description: String
    }

    /// Checks the source URL of a request against the allowed prefixes: every request, cached
    /// or not, since the settings may have changed since a result was cached.
    func checkPrefix(of url: URL) throws(Refusal) {
        let text = url.absoluteString
        if !allowedPrefixes.isEmpty, !allowedPrefixes.contains(where: { text.hasPrefix($0) }) {
            throw Refusal(description: "the source \(text.prefix(200)) is outside the allowed sources")
        }
    }

    /// Checks a URL a source redirected to (the prefixes apply to the source only, as a CDN may
    /// redirect elsewhere; the address rule applies to every hop).
    func checkRedirect(to url: URL) async throws(Refusal) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw Refusal(description: "the source redirected to \(url.absoluteString.prefix(200)), which is not http or https")
        }
        try await checkAddress(of: url)
    }

    /// Checks where a source is before it is fetched: only a fetch can reach a private network,
    /// so results already cached are served without resolving the host again.
    func checkAddress(of url: URL) async throws(Refusal) {
        guard !allowsPrivateNetworks else { return }
        let text = url.absoluteString
        if trustedPrivatePrefixes.contains(where: { text.hasPrefix($0) }) { return }
        guard let host = url.host, !host.isEmpty else {
            throw Refusal(description: "the source \(text.prefix(200)) has no host")
        }
        let addresses: [NetworkAddress]
        do {
            addresses = try await HostResolver.addresses(of: host)
        } catch {
            // An unresolvable host is not refused here: the fetch reports it as a source failure.
            return
        }
        if let address = addresses.first(where: { $0.nonPublicKind != nil }), let kind = address.nonPublicKind {
            throw Refusal(description: "\(text.prefix(200)) resolves to \(address), a \(kind) address")
        }
    }
}
