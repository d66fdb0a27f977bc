// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

extension SourceColorSpace {
    /// The colour space H.273 code points declare (an `nclx` colour box, AV1's sequence header):
    /// `sRGB` for BT.709 primaries with the sRGB transfer function, either of which may be
    /// unspecified (2), as decoders then assume sRGB; otherwise `cicp`.
    static func fromCICP(primaries: Int, transfer: Int) -> SourceColorSpace {
        let unspecified = 2
        let bt709Primaries = 1
        let sRGBTransfer = 13
        if [bt709Primaries, unspecified].contains(primaries) && [sRGBTransfer, unspecified].contains(transfer) {
            return .sRGB
        }
        return .cicp(primaries: primaries, transfer: transfer)
    }
}
