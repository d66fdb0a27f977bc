// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Expands the general entities a document declares in its internal DTD subset, and removes the
/// document type declaration, before librsvg sees it.
///
/// Illustrator and other editors declare entities for namespaces and colours, so documents that
/// use them must draw. But librsvg 2.54 leaks every entity value libxml2 hands it (about 100
/// bytes each), and libxml2's own guard against amplification only says "entity reference
/// loop". Expanded here, entities cost nothing after the parse, and a document that would grow
/// past ``ImageCreatingOptions/maxSVGByteCount`` is refused saying so. External entities are
/// never loaded: a reference to one is refused.
enum SVGEntityExpansion {
    /// The most bytes expanding entities may add to a document: 1 MiB. Editors use entities for
    /// a few names and colours; more is an amplification, whose parse would cost the service
    /// far more than the request that brought it.
    static let maxGrowth = 1 << 20

    /// `document` with its internal entities expanded and no document type declaration; the
    /// same bytes when it declares no internal subset.
    ///
    /// - Throws: `overLimit` when the expanded document would be over `limit` bytes or more than
    ///   ``maxGrowth`` larger,
    ///   `corruptedData` for an entity that refers to itself, a reference to an external
    ///   entity, or entity declarations anywhere else than the first document type declaration.
    static func expanded(_ document: Data, limit: Int) throws -> Data {
        let bytes = [UInt8](document)
        guard let declaration = doctypeRange(bytes), let subset = declaration.subset else {
            try refuseEntityDeclarations(in: bytes)
            return document
        }
        let doctype = declaration.doctype
        var entities = Entities(limit: min(limit, bytes.count + maxGrowth))
        try entities.declare(from: bytes[subset])
        let body = Entities.pieces(of: bytes[doctype.upperBound...], names: entities.declaredNames, skippingMarkup: true)
        let size = try entities.size(of: body) + doctype.lowerBound
        guard size - bytes.count <= maxGrowth else {
            throw ImageCodingError.overLimit(
                format: .SVG, detail: "its entities would add more than the \(maxGrowth) bytes entities may add to a document")
        }
        guard size <= limit else {
            throw ImageCodingError.overLimit(
                format: .SVG, detail: "with its entities expanded, the document is larger than the limit of \(limit) bytes")
        }
        var output = [UInt8](bytes[..<doctype.lowerBound])
        output.reserveCapacity(size)
        entities.write(body, of: bytes, to: &output)
        try refuseEntityDeclarations(in: output)
        return Data(output)
    }

    /// libxml2 reads entity declarations even in a document it then refuses (a second document
    /// type declaration, one that does not end), and librsvg would leak them: what is left after
    /// the expansion may declare none.
    private static func refuseEntityDeclarations(in bytes: [UInt8]) throws {
        guard bytes.firstRange(of: Array("<!ENTITY".utf8)) != nil else { return }
        throw ImageCodingError.corruptedData(format: .SVG, detail: "it declares entities outside the first document type declaration")
    }

    /// Where `<!DOCTYPE … >` is, past the XML declaration, comments and processing instructions,
    /// and the bytes between the `[` and `]` of its internal subset, if it has one.
    private static func doctypeRange(_ bytes: [UInt8]) -> (doctype: Range<Int>, subset: Range<Int>?)? {
        guard let start = bytes.firstRange(of: Array("<!DOCTYPE".utf8))?.lowerBound else { return nil }
        // The first element must come after it.
        if let element = firstElement(bytes), element < start { return nil }
        var index = start + 9
        var inSubset = false
        var subsetStart: Int?
        var subsetEnd: Int?
        var quote: UInt8?
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                inSubset = true
                if subsetStart == nil { subsetStart = index + 1 }
            } else if byte == UInt8(ascii: "]") {
                inSubset = false
                subsetEnd = index
            } else if byte == UInt8(ascii: ">"), !inSubset {
                guard let subsetStart, let subsetEnd, subsetStart <= subsetEnd else { return (start..<index + 1, nil) }
                return (start..<index + 1, subsetStart..<subsetEnd)
            } else if inSubset, bytes[index...].starts(with: "<!--".utf8) {
                guard let end = bytes[(index + 4)...].firstRange(of: Array("-->".utf8)) else { return nil }
                index = end.upperBound
                continue
            }
            index += 1
        }
        return nil
    }

    private static func firstElement(_ bytes: [UInt8]) -> Int? {
        var index = 0
        while let open = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
            guard open + 1 < bytes.count else { return nil }
            let next = bytes[open + 1]
            if next != UInt8(ascii: "?") && next != UInt8(ascii: "!") { return open }
            index = open + 1
        }
        return nil
    }

    /// A run of bytes copied as they are, or a reference to a declared entity.
    private enum Piece {
        case bytes(Range<Int>)
        case entity([UInt8])
    }

    /// The declared entities, and the expansion of references to them.
    private struct Entities {
        let limit: Int
        /// Each internal entity's value, as the source bytes it is made of and the entities it
        /// refers to; an external one has none.
        private var values: [[UInt8]: (source: [UInt8], pieces: [Piece])?] = [:]
        private var sizes: [[UInt8]: Int] = [:]

        init(limit: Int) {
            self.limit = limit
        }

        /// Reads the `<!ENTITY name "value">` declarations of an internal subset; the first
        /// declaration of a name binds, as XML says. Parameter entities, element and attribute
        /// declarations are dropped.
        mutating func declare(from subset: ArraySlice<UInt8>) throws {
            var declared: [([UInt8], [UInt8]?)] = []
            var index = subset.startIndex
            while let start = subset[index...].firstRange(of: Array("<!ENTITY".utf8)) {
                index = start.upperBound
                skipSpace(subset, &index)
                if index < subset.endIndex, subset[index] == UInt8(ascii: "%") { continue }
                let nameStart = index
                while index < subset.endIndex, !SVGMarkup.isSpace(subset[index]) { index += 1 }
                let name = Array(subset[nameStart..<index])
                skipSpace(subset, &index)
                guard index < subset.endIndex else { break }
                let quote = subset[index]
                if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                    guard let end = subset[(index + 1)...].firstIndex(of: quote) else {
                        throw ImageCodingError.corruptedData(format: .SVG, detail: "the value of the entity '\(text(name))' does not end")
                    }
                    declared.append((name, Array(subset[(index + 1)..<end])))
                    index = end + 1
                } else {
                    declared.append((name, nil))
                }
            }
            let names = Set(declared.map(\.0))
            for (name, value) in declared where values[name] == nil {
                values[name] = value.map { ($0, Self.pieces(of: $0[...], names: names, skippingMarkup: false)) } ?? .some(nil)
            }
        }

        /// `source` cut into runs of bytes and references to the entities `names` declares;
        /// with `skippingMarkup`, references inside comments, CDATA sections and processing
        /// instructions stay bytes, as XML leaves them. Predefined, character and undeclared
        /// references stay bytes too: they are libxml2's to read.
        static func pieces(of source: ArraySlice<UInt8>, names: Set<[UInt8]>, skippingMarkup: Bool) -> [Piece] {
            var pieces: [Piece] = []
            var runStart = source.startIndex
            var index = source.startIndex
            while index < source.endIndex {
                let byte = source[index]
                if skippingMarkup, byte == UInt8(ascii: "<"), let end = SVGMarkup.end(of: SVGMarkup.verbatimSections, in: source, at: index)
                {
                    index = end
                } else if byte == UInt8(ascii: "&"), let semicolon = source[index...].prefix(256).firstIndex(of: UInt8(ascii: ";")),
                    case let name = Array(source[(index + 1)..<semicolon]), names.contains(name)
                {
                    if runStart < index { pieces.append(.bytes(runStart..<index)) }
                    pieces.append(.entity(name))
                    index = semicolon + 1
                    runStart = index
                } else {
                    index += 1
                }
            }
            if runStart < source.endIndex { pieces.append(.bytes(runStart..<source.endIndex)) }
            return pieces
        }

        /// The expanded size of `pieces`, each entity's worked out once.
        ///
        /// - Throws: `corruptedData` for an entity that refers to itself or is external.
        mutating func size(of pieces: [Piece], expanding: [[UInt8]] = []) throws -> Int {
            var total = 0
            for piece in pieces {
                switch piece {
                case .bytes(let range):
                    total += range.count
                case .entity(let name):
                    if let known = sizes[name] {
                        total += known
                        continue
                    }
                    guard case .some(.some(let value)) = values[name] else {
                        throw ImageCodingError.corruptedData(
                            format: .SVG, detail: "the entity '\(text(name))' is external, and external entities are not loaded")
                    }
                    if expanding.contains(name) {
                        throw ImageCodingError.corruptedData(format: .SVG, detail: "the entity '\(text(name))' refers to itself")
                    }
                    let size = try self.size(of: value.pieces, expanding: expanding + [name])
                    sizes[name] = size
                    total += size
                }
                // Past the limit the sum only grows: stop before it can overflow.
                if total > limit { return total }
            }
            return total
        }

        /// Appends the expansion of `pieces` of `source` (whose sizes were checked).
        func write(_ pieces: [Piece], of source: [UInt8], to output: inout [UInt8]) {
            for piece in pieces {
                switch piece {
                case .bytes(let range):
                    output += source[range]
                case .entity(let name):
                    if case .some(.some(let value)) = values[name] { write(value.pieces, of: value.source, to: &output) }
                }
            }
        }

        var declaredNames: Set<[UInt8]> { Set(values.keys) }

        private func skipSpace(_ bytes: ArraySlice<UInt8>, _ index: inout Int) {
            while index < bytes.endIndex, SVGMarkup.isSpace(bytes[index]) { index += 1 }
        }

        private func text(_ name: [UInt8]) -> String { String(decoding: name.prefix(64), as: UTF8.self) }
    }
}
