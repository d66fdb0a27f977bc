// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// Recognises an SVG document from its first bytes, which have no magic number: past a
/// byte-order mark, white space, the XML declaration, processing instructions and comments, the
/// document type or the root element is `svg`. Other XML (XHTML, RSS) is not an image.
enum SVGSignature {
    /// Whether `head` starts an SVG document.
    static func matches(_ head: [UInt8]) -> Bool {
        var index = head.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while true {
            while index < head.count, SVGMarkup.isSpace(head[index]) { index += 1 }
            guard index < head.count, head[index] == UInt8(ascii: "<") else { return false }
            if starts(head, at: index, with: "<?") {
                guard let end = find(head, "?>", from: index + 2) else { return false }
                index = end + 2
            } else if starts(head, at: index, with: "<!--") {
                guard let end = find(head, "-->", from: index + 4) else { return false }
                index = end + 3
            } else if starts(head, at: index, with: "<!DOCTYPE") {
                index += 9
                while index < head.count, SVGMarkup.isSpace(head[index]) { index += 1 }
                return isSVG(name(in: head, at: index))
            } else {
                return isSVG(name(in: head, at: index + 1))
            }
        }
    }

    /// `svg`, or `svg` in a namespace prefix (`<svg:svg`).
    private static func isSVG(_ name: ArraySlice<UInt8>) -> Bool {
        let svg = Array("svg".utf8)
        guard let colon = name.lastIndex(of: UInt8(ascii: ":")) else { return name.elementsEqual(svg) }
        return name[(colon + 1)...].elementsEqual(svg)
    }

    private static func name(in head: [UInt8], at start: Int) -> ArraySlice<UInt8> {
        var end = start
        while end < head.count, !SVGMarkup.isSpace(head[end]),
            ![UInt8(ascii: ">"), UInt8(ascii: "/"), UInt8(ascii: "[")].contains(head[end])
        {
            end += 1
        }
        // A name cut by the end of the head is not known to be `svg`.
        guard end < head.count, start < end else { return [] }
        return head[start..<end]
    }

    private static func starts(_ head: [UInt8], at index: Int, with text: String) -> Bool {
        head[index...].starts(with: text.utf8)
    }

    private static func find(_ head: [UInt8], _ text: String, from start: Int) -> Int? {
        let needle = Array(text.utf8)
        guard head.count >= needle.count, start <= head.count - needle.count else { return nil }
        return (start...(head.count - needle.count)).first { head[$0..<$0 + needle.count].elementsEqual(needle) }
    }
}
