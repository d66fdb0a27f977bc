// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Commands run in a new user and mount namespace (`unshare --user --map-root-user --mount`),
/// where a test may mount a small tmpfs without privileges (where user namespaces are enabled,
/// as on Debian); the mounts vanish with the namespace. The network is the test's own.
package enum MountNamespace {
    /// Whether this machine lets a test make one with a tmpfs in it.
    package static let isAvailable: Bool = {
        (try? withTemporaryDirectory { directory in
            try ProcessRun.runBlocking(
                "/usr/bin/unshare", arguments("mount -t tmpfs -o size=64k kf-probe \"$1\"", [directory.path])
            ).status == 0
        }) ?? false
    }()

    /// The `unshare` arguments running `script` with `sh` in the namespace, `$1`… being
    /// `scriptArguments`.
    package static func arguments(_ script: String, _ scriptArguments: [String]) -> [String] {
        ["--user", "--map-root-user", "--mount", "sh", "-c", script, "sh"] + scriptArguments
    }
}
