// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Finds what in an SVG document would load something from outside it: an `image`, `use`,
/// `feImage` or XInclude whose `href` is not a fragment of the document or a `data:` URL, a
/// `url(…)` pointing elsewhere in an attribute or a style sheet, an `@import`.
///
/// librsvg would load none of them (a document is parsed without a base URL), so the document
/// would draw with holes; such a document is refused instead, naming the reference, since on a
/// server it is most often a probe for files and internal addresses. Hyperlinks (`<a href>`)
/// load nothing and are left alone.
enum SVGExternalReferences {
    /// Elements whose `href` (or `xlink:href`) is loaded.
    private static let loadingElements: Set<String> = ["image", "use", "feImage", "include"]

    /// The first external reference in `document`, described ("<image href=\"file:///…\">"), or
    /// `nil`.
    static func first(in document: [UInt8]) -> String? {
        var index = 0
        while let open = document[index...].firstIndex(of: UInt8(ascii: "<")) {
            index = open + 1
            if let end = SVGMarkup.end(of: skippedMarkup, in: document[...], at: open) {
                index = end
                continue
            }
            guard let tag = readTag(document, from: index) else { return nil }
            index = tag.end
            let element = localName(tag.name)
            for (name, value) in tag.attributes {
                if localName(name) == "href", loadingElements.contains(element), isExternal(value) {
                    return "<\(tag.name) \(name)=\"\(excerpt(value))\">"
                }
                if let url = externalURL(in: value) { return "<\(tag.name) \(name)=\"…url(\(excerpt(url)))…\">" }
            }
            if element == "style", let close = document[index...].firstRange(of: Array("</".utf8)) {
                let sheet = String(decoding: document[index..<close.lowerBound], as: UTF8.self)
                if sheet.contains("@import") { return "<style> with @import" }
                if let url = externalURL(in: sheet) { return "<style> with url(\(excerpt(url)))" }
            }
        }
        return nil
    }

    /// Whether a reference leaves the document: anything but a fragment (`#id`) or a `data:` URL.
    private static func isExternal(_ value: String) -> Bool {
        let reference = value.trimmingCharacters(in: .whitespacesAndNewlines)
        return !reference.isEmpty && !reference.hasPrefix("#") && !reference.lowercased().hasPrefix("data:")
    }

    /// The first `url(…)` in `text` that leaves the document.
    private static func externalURL(in text: String) -> String? {
        var rest = Substring(text)
        while let start = rest.range(of: "url(", options: .caseInsensitive) {
            rest = rest[start.upperBound...]
            let end = rest.firstIndex(of: ")") ?? rest.endIndex
            let url = rest[..<end].trimmingCharacters(in: CharacterSet(charactersIn: " \t\n\r\"'"))
            if isExternal(url) { return url }
            rest = rest[end...]
        }
        return nil
    }

    /// Markup that holds no attributes to check: the verbatim sections, declarations and end
    /// tags.
    private static let skippedMarkup = SVGMarkup.verbatimSections + [("<!", ">"), ("</", ">")]

    /// A start tag's name and attributes, read from just after its `<`.
    private static func readTag(_ bytes: [UInt8], from start: Int) -> (name: String, attributes: [(String, String)], end: Int)? {
        var index = start
        func isNameByte(_ byte: UInt8) -> Bool {
            !SVGMarkup.isSpace(byte) && byte != UInt8(ascii: ">") && byte != UInt8(ascii: "/") && byte != UInt8(ascii: "=")
        }
        while index < bytes.count, isNameByte(bytes[index]) { index += 1 }
        let name = String(decoding: bytes[start..<index], as: UTF8.self)
        var attributes: [(String, String)] = []
        while index < bytes.count {
            while index < bytes.count, SVGMarkup.isSpace(bytes[index]) || bytes[index] == UInt8(ascii: "/") { index += 1 }
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: ">") { return (name, attributes, index + 1) }
            let nameStart = index
            while index < bytes.count, isNameByte(bytes[index]) { index += 1 }
            let attribute = String(decoding: bytes[nameStart..<index], as: UTF8.self)
            while index < bytes.count, SVGMarkup.isSpace(bytes[index]) { index += 1 }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { continue }
            index += 1
            while index < bytes.count, SVGMarkup.isSpace(bytes[index]) { index += 1 }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else { return nil }
            let quote = bytes[index]
            guard let close = bytes[(index + 1)...].firstIndex(of: quote) else { return nil }
            attributes.append((attribute, String(decoding: bytes[(index + 1)..<close], as: UTF8.self)))
            index = close + 1
        }
        return nil
    }

    private static func localName(_ name: String) -> String {
        name.split(separator: ":").last.map(String.init) ?? name
    }

    private static func excerpt(_ text: String) -> String {
        text.count > 80 ? String(text.prefix(80)) + "…" : text
    }
}
