// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher
@testable import KingfisherImaging

/// SVG sources (Fixtures/svg), drawn by librsvg at the size asked for.
@Suite struct SVGDecodingTests {
    static func pixel(_ image: KingfisherImage, _ x: Int, _ y: Int) -> [UInt8] {
        let start = (y * image.pixelWidth + x) * 4
        return Array(image.pixels[start..<start + 4])
    }

    static let red: [UInt8] = [255, 0, 0, 255]
    static let lime: [UInt8] = [0, 255, 0, 255]
    static let halfBlue: [UInt8] = [0, 0, 255, 128]
    static let clear: [UInt8] = [0, 0, 0, 0]

    /// shapes.svg's four quadrants, met at (`x`, `y`) with no pixel in between: drawn, not
    /// enlarged from a smaller raster (which would blend the colours across the edges).
    static func expectQuadrants(_ image: KingfisherImage, meetingAt x: Int, _ y: Int) {
        #expect(pixel(image, 0, 0) == red && pixel(image, x - 1, y - 1) == red)
        #expect(pixel(image, x, 0) == lime && pixel(image, x, y - 1) == lime && pixel(image, image.pixelWidth - 1, 0) == lime)
        #expect(pixel(image, x - 1, y) == halfBlue && pixel(image, 0, image.pixelHeight - 1) == halfBlue)
        #expect(pixel(image, x, y) == clear && pixel(image, image.pixelWidth - 1, image.pixelHeight - 1) == clear)
    }

    @Test(arguments: [
        ("<svg xmlns=\"http://www.w3.org/2000/svg\"/>", true),
        ("\u{FEFF}  <?xml version=\"1.0\"?>\n<!-- made by hand -->\n<?xml-stylesheet href=\"a.css\"?>\n<svg>", true),
        ("<?xml version=\"1.0\"?><!DOCTYPE svg [<!ENTITY a \"b\">]><svg>", true),
        ("<svg:svg xmlns:svg=\"http://www.w3.org/2000/svg\">", true),
        ("<html><body><svg></svg></body></html>", false),
        ("<?xml version=\"1.0\"?><rss version=\"2.0\">", false),
        ("<svgfoo>", false),
        ("<?xml version=\"1.0\"?><!-- a comment that is not closed", false),
        ("svg", false),
    ])
    func svgIsRecognisedByItsRootElement(_ text: String, _ isSVG: Bool) {
        #expect((Data(text.utf8).kf.imageFileFormat == .SVG) == isSVG, "\(text)")
    }

    @Test func anSVGIsDrawnAtItsOwnSizeWithItsColoursExact() throws {
        let data = try Fixtures.data("svg/shapes.svg")
        let image = try KingfisherImage.decode(data: data)
        #expect(image.format == .SVG && image.hasAlpha)
        #expect(image.pixelWidth == 20 && image.pixelHeight == 10)
        Self.expectQuadrants(image, meetingAt: 10, 5)
        let properties = try ImageProperties(data: data)
        #expect(properties.format == .SVG && properties.pixelWidth == 20 && properties.pixelHeight == 10)
    }

    /// Entities an editor declares (namespaces, colours, markup) are expanded: the document
    /// draws as if written out, and comments keep their references.
    @Test func internalEntitiesAreExpanded() throws {
        let image = try KingfisherImage.decode(data: Fixtures.data("svg/illustrator_entities.svg"))
        #expect(image.pixelWidth == 20 && image.pixelHeight == 10)
        Self.expectQuadrants(image, meetingAt: 10, 5)
        let expanded = try SVGEntityExpansion.expanded(Fixtures.data("svg/illustrator_entities.svg"), limit: 1 << 20)
        let text = String(decoding: expanded, as: UTF8.self)
        #expect(!text.contains("<!DOCTYPE") && text.contains("<!-- &red; is not expanded in a comment -->"))
        #expect(text.contains("<rect x='0' y='0' width='10' height='5' fill='#ff0000'/>"))
    }

    @Test func anSVGIsDrawnAtTheSizeTheProcessingAsksForNotEnlargedFromPixels() throws {
        let data = try Fixtures.data("svg/shapes.svg")
        let large = try ImageProcessorSpec.processor(from: "resize(400x200)").process(.data(data), in: ImageProcessingContext())
        #expect(large.pixelWidth == 400 && large.pixelHeight == 200)
        Self.expectQuadrants(large, meetingAt: 200, 100)
        // Stretched as any image is when the content mode is none.
        let square = try ImageProcessorSpec.processor(from: "resize(40x40)").process(.data(data), in: ImageProcessingContext())
        #expect(square.pixelWidth == 40 && square.pixelHeight == 40)
        Self.expectQuadrants(square, meetingAt: 20, 20)
        // A thumbnail never enlarges, as for any format.
        #expect(try KingfisherImage.downsampled(data: data, maxPixelSize: 1000).pixelWidth == 20)
        let small = try KingfisherImage.downsampled(data: data, maxPixelSize: 10)
        #expect(small.pixelWidth == 10 && small.pixelHeight == 5)
        // Its rows meet at 2.5: the middle row is a blend, the columns still meet exactly.
        #expect(Self.pixel(small, 4, 1) == Self.red && Self.pixel(small, 5, 1) == Self.lime)
        #expect(Self.pixel(small, 4, 4) == Self.halfBlue && Self.pixel(small, 5, 4) == Self.clear)
    }

    @Test(arguments: [
        ("svg/viewbox_only.svg", 40, 30), ("svg/no_size.svg", 300, 150), ("svg/inches.svg", 96, 48), ("svg/prefixed.svg", 4, 4),
    ])
    func anSVGsOwnSizeIsItsWidthAndHeightElseItsViewBoxElseABrowsersDefault(_ file: String, _ width: Int, _ height: Int) throws {
        let data = try Fixtures.data(file)
        let image = try KingfisherImage.decode(data: data)
        #expect(image.pixelWidth == width && image.pixelHeight == height)
        let properties = try ImageProperties(data: data)
        #expect(properties.pixelWidth == width && properties.pixelHeight == height)
        #expect(Self.pixel(image, width / 2, height / 2)[3] == 255, "the middle is drawn")
    }

    /// Hostile documents are refused before anything is drawn, each with one line that says why.
    @Test(arguments: [
        ("svg/billion_laughs.svg", "its entities would add more than the 1048576 bytes entities may add to a document"),
        ("svg/entity_loop.svg", "the entity 'a' refers to itself"),
        ("svg/xxe_entity.svg", "the entity 'xxe' is external, and external entities are not loaded"),
        ("svg/huge_declared.svg", "1000000000x1000000000 pixels, over the limit"),
    ])
    func hostileDocumentsAreRefusedWithWhy(_ file: String, _ reason: String) throws {
        let data = try Fixtures.data(file)
        for attempt in [{ _ = try KingfisherImage.decode(data: data) }, { _ = try ImageProperties(data: data) }] {
            let error = try #require(throws: ImageCodingError.self, performing: attempt)
            #expect(error.errorDescription.contains(reason) && !error.errorDescription.contains("\n"), "\(error)")
        }
    }

    @Test func nestingDeeperThanLibxml2AllowsIsRefused() throws {
        let depth = 100_000
        let text =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\">"
            + String(repeating: "<g>", count: depth) + String(repeating: "</g>", count: depth) + "</svg>"
        let error = try #require(throws: ImageCodingError.self) { try KingfisherImage.decode(data: Data(text.utf8)) }
        #expect(error.errorDescription.contains("Excessive depth in document: 256"), "\(error)")
    }

    @Test func entitiesMayNotTakeADocumentPastItsSizeLimit() throws {
        let text =
            "<!DOCTYPE svg [<!ENTITY big \"\(String(repeating: "x", count: 200))\">]><svg xmlns=\"http://www.w3.org/2000/svg\">"
            + String(repeating: "<desc>&big;</desc>", count: 20) + "</svg>"
        let options = ImageCreatingOptions(maxSVGByteCount: 2000)
        let error = try #require(throws: ImageCodingError.self) { try KingfisherImage.decode(data: Data(text.utf8), options: options) }
        #expect(
            error == .overLimit(format: .SVG, detail: "with its entities expanded, the document is larger than the limit of 2000 bytes"))
    }

    @Test func aDocumentOverTheSizeLimitIsNotParsed() throws {
        let data = try Fixtures.data("svg/shapes.svg")
        let options = ImageCreatingOptions(maxSVGByteCount: 100)
        let error = try #require(throws: ImageCodingError.self) { try KingfisherImage.decode(data: data, options: options) }
        #expect(error == .overLimit(format: .SVG, detail: "the document is \(data.count) bytes, over the limit of 100 bytes"))
        #expect(error.errorCode == 6009)
    }

    /// A render past its time limit is refused: with a limit of 0 it never starts; a document of
    /// large shapes that takes about a second is given up on after 0.05 s.
    @Test func aRenderOverItsTimeLimitIsRefused() throws {
        let shapes = try Fixtures.data("svg/shapes.svg")
        let expired = try #require(throws: ImageCodingError.self) {
            try KingfisherImage.decode(data: shapes, options: ImageCreatingOptions(maxSVGRenderingTime: 0))
        }
        #expect(expired == .overLimit(format: .SVG, detail: "rendering it took longer than the limit of 0 s"))
        let circles = (0..<500).map { "<circle cx=\"\($0 % 2000)\" cy=\"\($0 * 7 % 2000)\" r=\"900\" fill-opacity=\"0.5\"/>" }
        let heavy = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"2000\" height=\"2000\">\(circles.joined())</svg>"
        let slow = try #require(throws: ImageCodingError.self) {
            try KingfisherImage.decode(data: Data(heavy.utf8), options: ImageCreatingOptions(maxSVGRenderingTime: 0.05))
        }
        #expect(slow == .overLimit(format: .SVG, detail: "rendering it took longer than the limit of 0.05 s"))
        // The renderer that gave up leaves its slot: a small document renders next.
        #expect(try KingfisherImage.decode(data: shapes).pixelWidth == 20)
    }

    /// Images, `use`, filters and style sheets pointing outside the document are refused, naming
    /// the reference: neither a file nor a server on loopback is read.
    @Test func externalReferencesAreRefused() async throws {
        try await withTestHTTPServer { origin in
            let photo = Fixtures.directory.appendingPathComponent("photo.png").absoluteString
            let remote = origin.url("/image/photo.png").absoluteString
            let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"10\" height=\"10\">"
            let references = [
                ("<image href=\"\(photo)\" width=\"10\" height=\"10\"/>", "<image href=\"\(photo)\">"),
                ("<image xlink:href='\(remote)' width='10' height='10'/>", "<image xlink:href=\"\(remote)\">"),
                ("<use href=\"\(remote)#shape\"/>", "<use href=\"\(remote)#shape\">"),
                ("<rect width=\"10\" height=\"10\" fill=\"url(\(remote)#g)\"/>", "<rect fill=\"…url(\(remote)#g)…\">"),
                ("<style>rect { fill: url('\(remote)'); }</style>", "<style> with url(\(remote))"),
                ("<style>@import '\(remote)';</style>", "<style> with @import"),
            ]
            for (element, named) in references {
                let data = Data((svg + element + "</svg>").utf8)
                let error = try #require(throws: ImageCodingError.self) { try KingfisherImage.decode(data: data) }
                #expect(
                    error == .overLimit(format: .SVG, detail: "it refers outside itself, in \(named), and an SVG may load nothing"),
                    "\(error)")
            }
            #expect(origin.totalRequests == 0, "nothing was fetched")
        }
    }

    /// What stays inside the document is drawn: fragments, `data:` URLs, gradients by `url(#…)`,
    /// and hyperlinks, which load nothing.
    @Test func referencesInsideTheDocumentAreDrawn() throws {
        let pixel = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
        let text = """
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="30" height="10">
            <defs><linearGradient id="g"><stop offset="0" stop-color="lime"/></linearGradient>
            <rect id="r" width="10" height="10" fill="url(#g)"/></defs>
            <a href="https://example.com/"><use xlink:href="#r"/></a>
            <image href="\(pixel)" x="10" width="10" height="10"/>
            <rect x="20" width="10" height="10" fill="url( '#g' )"/></svg>
            """
        let image = try KingfisherImage.decode(data: Data(text.utf8))
        #expect(Self.pixel(image, 5, 5) == Self.lime && Self.pixel(image, 25, 5) == Self.lime)
        #expect(Self.pixel(image, 15, 5)[3] == 255, "the data: image is drawn")
    }
}
