// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// How much memory this process may use: the cgroup limit when the process runs under one
/// (containers, systemd units), else the machine's physical memory.
enum AvailableMemory {
    /// The cgroup v2 limit (`memory.max` of the process's cgroup), else the cgroup v1 limit
    /// (`memory.limit_in_bytes`), else physical memory. A v1 "no limit" is a huge number and is
    /// ignored when above physical memory.
    static func bytes(root: String = "/sys/fs/cgroup", selfCgroup: String = "/proc/self/cgroup") -> UInt64 {
        let physical = ProcessInfo.processInfo.physicalMemory
        if let limit = cgroupLimit(root: root, selfCgroup: selfCgroup), limit > 0, limit < physical {
            return limit
        }
        return physical
    }

    static func cgroupLimit(root: String, selfCgroup: String) -> UInt64? {
        let membership = (try? String(contentsOfFile: selfCgroup, encoding: .utf8)) ?? ""
        for line in membership.split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            let path = String(fields[2])
            if fields[0] == "0" && fields[1].isEmpty {
                // cgroup v2: walk from the process's group up to the root, the tightest limit wins.
                var candidates: [UInt64] = []
                var directory = root + (path == "/" ? "" : path)
                while directory.hasPrefix(root) {
                    if let value = read(directory + "/memory.max").flatMap(parseLimit) { candidates.append(value) }
                    if directory == root { break }
                    directory = (directory as NSString).deletingLastPathComponent
                }
                if let limit = candidates.min() { return limit }
            } else if fields[1].split(separator: ",").contains("memory") {
                for directory in [root + "/memory" + path, root + "/memory"] {
                    if let value = read(directory + "/memory.limit_in_bytes").flatMap(parseLimit) { return value }
                }
            }
        }
        return read(root + "/memory.max").flatMap(parseLimit)
    }

    /// A cgroup limit file's value: bytes, or `nil` for `max` (no limit) and unreadable text.
    static func parseLimit(_ text: String) -> UInt64? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed == "max" ? nil : UInt64(trimmed)
    }

    private static func read(_ path: String) -> String? {
        try? String(contentsOfFile: path, encoding: .utf8)
    }
}
