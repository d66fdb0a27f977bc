// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

/// `kf serve` connects only to the address it checked, in a network namespace of the test's
/// own: a resolver that answers a public address to the check and loopback to the connection
/// (DNS rebinding) gets a 403, and the origin on loopback is never reached.
@Suite struct KFServeEgressTests {
    /// Starts the resolver, an origin on port 8081 of every address, and `kf serve`, then asks
    /// for `/stable.png` of stable.test, `/rebind.png` of rebind.test, and `/hop` of
    /// stable.test, which redirects to `/rebind.png` of rebind-hop.test; prints `NAME STATUS`
    /// lines, the answers' bodies and the logs are left in the directory.
    private static let script = """
        set -eu
        dir=$1; kf=$2
        ip link set lo up
        ip addr add 203.0.113.7/32 dev lo
        printf 'nameserver 127.0.0.1\\n' > "$dir/resolv.conf"
        printf '127.0.0.1 localhost\\n' > "$dir/hosts"
        mount --bind "$dir/resolv.conf" /etc/resolv.conf
        mount --bind "$dir/hosts" /etc/hosts
        exec 3< <(exec /usr/bin/python3 -u "$dir/dns.py" "$dir/dns.log" 2>"$dir/dns.err")
        read -r -u 3 ready
        cd "$dir/origin"
        exec 4< <(exec /usr/bin/python3 -u "$dir/origin.py" 2>"$dir/origin.log")
        read -r -u 4 ready
        exec 5< <(exec "$kf" serve --port 0 --key k --directory "$dir/cache" 2>"$dir/serve.log")
        read -r -u 5 listening
        port=${listening##*:}
        port=${port%%/*}
        for name in stable rebind hop; do
            source="http://$name.test:8081/$name.png"
            [ "$name" = hop ] && source="http://stable.test:8081/hop"
            path=$("$kf" url "$source" --key k)
            curl -s -o "$dir/$name.body" -w "$name %{http_code}\\n" "http://127.0.0.1:$port$path"
        done
        """

    /// Files from the directory it runs in; `/hop` redirects to rebind-hop.test.
    private static let origin = """
        import http.server
        class Origin(http.server.SimpleHTTPRequestHandler):
            def do_GET(self):
                if self.path == "/hop":
                    self.send_response(302)
                    self.send_header("Location", "http://rebind-hop.test:8081/rebind.png")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                else:
                    super().do_GET()
        server = http.server.ThreadingHTTPServer(("0.0.0.0", 8081), Origin)
        print("ready", flush=True)
        server.serve_forever()
        """

    @Test(.enabled(if: NetworkNamespace.isAvailable, "needs unshare with user and network namespaces, and iproute2"))
    func aNameThatRebindsToLoopbackIsRefusedAtTheConnection() async throws {
        try await withTemporaryDirectory { directory in
            let origin = directory.appendingPathComponent("origin")
            try FileManager.default.createDirectory(at: origin, withIntermediateDirectories: true)
            let photo = try Fixtures.data("photo.png")
            try photo.write(to: origin.appendingPathComponent("stable.png"))
            try photo.write(to: origin.appendingPathComponent("rebind.png"))
            try Data(NetworkNamespace.rebindingResolver.utf8).write(to: directory.appendingPathComponent("dns.py"))
            try Data(Self.origin.utf8).write(to: directory.appendingPathComponent("origin.py"))
            let run = try await ProcessRun.run(
                "/usr/bin/unshare", NetworkNamespace.arguments(Self.script, [directory.path, BuiltExecutable.kf.path]))
            let log = { (name: String) in (try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)) ?? "" }
            let details = "stdout: \(run.stdout) stderr: \(run.stderr) serve: \(log("serve.log")) dns: \(log("dns.log"))"
            #expect(run.status == 0, "\(details)")
            // A public address, checked and connected to: served.
            #expect(run.stdout.contains("stable 200"), "\(details)")
            // Public to the check, loopback to the connection: refused, and the origin never asked.
            #expect(run.stdout.contains("rebind 403"), "\(details)")
            #expect(log("rebind.body") == "refused to fetch: rebind.test resolves to 127.0.0.1, a loopback address\n", "\(details)")
            // A redirect hop whose name rebinds: refused the same way.
            #expect(run.stdout.contains("hop 403"), "\(details)")
            #expect(
                log("hop.body") == "refused to fetch: rebind-hop.test resolves to 127.0.0.1, a loopback address\n", "\(details)")
            #expect(!log("origin.log").contains("/rebind.png"), "\(log("origin.log"))")
            #expect(log("origin.log").contains("GET /stable.png"), "\(log("origin.log"))")
        }
    }
}
