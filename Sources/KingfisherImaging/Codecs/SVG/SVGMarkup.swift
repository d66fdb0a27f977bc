// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// The few pieces of XML syntax that the SVG scanners (``SVGSignature``,
/// ``SVGEntityExpansion``, ``SVGExternalReferences``) read the same way, ahead of libxml2.
enum SVGMarkup {
    /// XML white space: space, tab, line feed, carriage return.
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Markup whose content is not elements or references: comments, CDATA sections and
    /// processing instructions, as their opening and closing delimiters.
    static let verbatimSections = [("<!--", "-->"), ("<![CDATA[", "]]>"), ("<?", "?>")]

    /// The end of the markup at `index` that opens with one of `sections`' delimiters: just past
    /// its closing delimiter, or the end of `bytes` when it does not close; `nil` when none opens
    /// there.
    static func end(of sections: [(String, String)], in bytes: ArraySlice<UInt8>, at index: Int) -> Int? {
        for (open, close) in sections where bytes[index...].starts(with: open.utf8) {
            return bytes[(index + open.utf8.count)...].firstRange(of: Array(close.utf8))?.upperBound ?? bytes.endIndex
        }
        return nil
    }
}
