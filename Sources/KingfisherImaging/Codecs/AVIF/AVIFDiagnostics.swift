// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CAvif

extension avifDiagnostics {
    /// What went wrong in a libavif call that returned `result`: the result's name, then the
    /// detail libavif wrote into these diagnostics, if any.
    func message(for result: avifResult) -> String {
        let name = String(cString: avifResultToString(result))
        let detail = withUnsafeBytes(of: error) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return detail.isEmpty ? name : "\(name): \(detail)"
    }
}
