// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The process's open-file limit, which every client connection, source fetch, cache file and
/// Redis connection counts against: raised when the service starts so that its most connections
/// fit with room for the rest, as nginx's `worker_rlimit_nofile` or Go's runtime do.
enum OpenFileLimit {
    /// Descriptors kept for everything but client connections: fetches, cache files, Redis,
    /// the listening socket, logs.
    static let reserve = 1024

    /// Raises the soft limit to what `connections` need, up to the hard limit.
    ///
    /// - Throws: ``ConfigurationError`` when even the hard limit is too low, naming both.
    static func raise(toFit connections: Int) throws(ConfigurationError) {
        // Glibc imports the resource as an enum case; the functions take its raw value.
        let openFiles = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        var limit = rlimit()
        guard getrlimit(openFiles, &limit) == 0 else { return }
        let needed = rlim_t(connections + reserve)
        guard limit.rlim_cur < needed else { return }
        guard limit.rlim_max >= needed else {
            throw ConfigurationError(
                description: "\(connections) connections need \(needed) open files (\(reserve) kept for fetches and caches), "
                    + "over this process's hard limit of \(limit.rlim_max): lower --max-connections or raise the limit (ulimit -Hn)")
        }
        limit.rlim_cur = needed
        guard setrlimit(openFiles, &limit) == 0 else {
            throw ConfigurationError(description: "cannot raise the open-file limit to \(needed): \(String(cString: strerror(errno)))")
        }
    }
}
