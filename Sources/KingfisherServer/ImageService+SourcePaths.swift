// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

extension ImageService {
    /// The source a path of the shape `{prefix}/{signature}/-/{source}` names (`/info`,
    /// `/purge`), once its signature, which covers `{prefix}/-/{source}`, and the source policy
    /// allow it: `404` for another shape, `403` for a bad signature or a refused source, `400`
    /// for a processing or an extension.
    func source(ofPath path: Substring, prefix: String) throws(ServiceError) -> URL {
        let shape = "\(prefix)/SIGNATURE/-/SOURCE"
        let target: ImageURLPath
        do {
            target = try ImageURLPath(path: path.dropFirst(prefix.count))
        } catch {
            throw ServiceError(.notFound, "no such page: \(prefix.dropFirst()) URLs are \(shape)")
        }
        try checkSignature(of: target, covering: prefix)
        let request: ImageURLPath.Decoded
        do {
            request = try target.decoded()
        } catch {
            throw ServiceError(.badRequest, error.description)
        }
        guard request.processing == nil, request.expires == nil, request.format == nil else {
            throw ServiceError(.badRequest, "this URL takes no processing and no extension: \(shape)")
        }
        do {
            try policy.checkPrefix(of: request.source)
        } catch {
            throw ServiceError(.forbidden, "refused to fetch: \(error.description)")
        }
        return request.source
    }
}
