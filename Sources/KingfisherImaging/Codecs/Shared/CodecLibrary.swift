// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CCodecLoader

/// libheif, libavif and libjxl, opened on first use (CCodecLoader): with the decoders they
/// pull in they are most of a process's start-up, which a process that never meets HEIC, AVIF
/// or JPEG XL need not pay. Every entry point of those codecs loads its library first.
enum CodecLibrary {
    case heif, avif, jxl

    private var library: kf_codec_library {
        switch self {
        case .heif: return KF_CODEC_LIBRARY_HEIF
        case .avif: return KF_CODEC_LIBRARY_AVIF
        case .jxl: return KF_CODEC_LIBRARY_JXL
        }
    }

    /// Opens the library (once per process) so that its functions may be called.
    ///
    /// - Throws: ``ImageCodingError/unsupportedFormat(_:)`` for `format` when the library is
    ///   not installed or lacks a function.
    func load(for format: ImageFileFormat) throws {
        guard kf_codec_library_load(library) else { throw ImageCodingError.unsupportedFormat(format) }
    }

    /// Why the library could not be opened; empty when it was (or has not been tried).
    var loadError: String { String(cString: kf_codec_library_error(library)) }
}
