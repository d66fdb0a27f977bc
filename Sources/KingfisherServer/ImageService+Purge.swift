// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

extension ImageService {
    /// `DELETE /purge/{signature}/-/{source}`: the source's original and every result made from
    /// it are removed from memory, disk and Redis, on every node (``SourcePurger``); the next
    /// request fetches it again. Answers one line saying what was removed.
    func purge(forPath path: Substring) async throws(ServiceError) -> String {
        let source = try source(ofPath: path, prefix: ImageURLPath.purgePrefix)
        let outcome = try await purger.purge(source)
        let nodes = outcome.toldOtherNodes ? "; every node was told" : ""
        return "purged \(ServiceError.printable(String(source.absoluteString.prefix(300)))): "
            + "its original and \(outcome.results) results removed\(nodes)"
    }
}
