// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Scripts run in new user, mount, network and PID namespaces (`unshare --user
/// --map-root-user --mount --net --pid --fork`): the network has only its own loopback, so
/// nothing a script starts can reach another machine, and the script may add addresses to it,
/// run servers on any port and bind-mount its own `/etc/resolv.conf` and `/etc/hosts` to answer
/// names as a test needs. Whatever the script started ends with it: the script is the PID
/// namespace's first process.
package enum NetworkNamespace {
    /// Whether this machine lets a test make one and set up its loopback.
    package static let isAvailable: Bool = {
        (try? ProcessRun.runBlocking("/usr/bin/unshare", arguments("ip link set lo up && ip addr add 203.0.113.1/32 dev lo", [])).status
            == 0) ?? false
    }()

    /// The `unshare` arguments running `script` with `bash` in the namespaces, `$1`… being
    /// `scriptArguments`.
    package static func arguments(_ script: String, _ scriptArguments: [String]) -> [String] {
        ["--user", "--map-root-user", "--mount", "--net", "--pid", "--fork", "bash", "-c", script, "bash"] + scriptArguments
    }

    /// A DNS server for `python3 -u SCRIPT LOG` on 127.0.0.1:53 that prints `ready` once it
    /// listens and logs each question. `stable.test` is 203.0.113.7 (a public address); the
    /// first A question for a name `rebind….test` gets 203.0.113.7 and every later one
    /// 127.0.0.1, as a rebinding attacker's server answers; other names do not exist. Answers
    /// live 0 seconds.
    package static let rebindingResolver = """
        import socket, struct, sys
        log = open(sys.argv[1], "a")
        server = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        server.bind(("127.0.0.1", 53))
        print("ready", flush=True)
        asked = {}
        while True:
            query, peer = server.recvfrom(512)
            ident = struct.unpack(">H", query[:2])[0]
            labels, at = [], 12
            while query[at]:
                labels.append(query[at + 1:at + 1 + query[at]].decode())
                at += 1 + query[at]
            qtype = struct.unpack(">H", query[at + 1:at + 3])[0]
            question = query[12:at + 5]
            name = ".".join(labels).lower()
            address = None
            if qtype == 1:
                asked[name] = asked.get(name, 0) + 1
                if name == "stable.test":
                    address = "203.0.113.7"
                elif name.startswith("rebind") and name.endswith(".test"):
                    address = "203.0.113.7" if asked[name] == 1 else "127.0.0.1"
            known = name == "stable.test" or (name.startswith("rebind") and name.endswith(".test"))
            header = struct.pack(">HHHHHH", ident, 0x8180 | (0 if known else 3), 1, 1 if address else 0, 0, 0)
            answer = b""
            if address:
                answer = b"\\xc0\\x0c" + struct.pack(">HHIH", 1, 1, 0, 4) + socket.inet_aton(address)
            server.sendto(header + question + answer, peer)
            log.write(f"{name} {qtype} {address}\\n")
            log.flush()
        """
}
