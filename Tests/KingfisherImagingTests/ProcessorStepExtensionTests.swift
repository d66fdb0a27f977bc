// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher
import KingfisherTestKit
import Testing

/// A processing step written against the public API alone, as an application would: `invert`,
/// with an optional strength, added to the grammar with one call and parsed like the built-in
/// steps.
@Suite struct ProcessorStepExtensionTests {
    /// Inverts the colour of every pixel, mixed with the original by `strength`.
    struct InvertProcessor: ImageProcessing {
        let strength: CGFloat
        var identifier: String { "com.example.invert(\(strength))" }

        func process(_ item: ImageProcessItem, in context: ImageProcessingContext) throws -> KingfisherImage {
            let image = try DefaultImageProcessor.default.process(item, in: context)
            var pixels = image.pixels
            for index in pixels.indices where index % 4 != 3 {
                let value = CGFloat(pixels[index])
                pixels[index] = UInt8((value + (255 - 2 * value) * strength).rounded())
            }
            return KingfisherImage(width: image.pixelWidth, height: image.pixelHeight, pixels: pixels, scale: image.scale)
        }
    }

    static let invert = ProcessorStep(
        name: "invert", summary: "invert the colours", meaning: "InvertProcessor (S: 0 none ... 1 full)",
        arguments: [.optional("strength", "S", .number(0...1, step: 0.1), default: "1")]
    ) { InvertProcessor(strength: $0.number(0)) }

    @Test func aStepAddedToTheGrammarParsesAndRuns() throws {
        let grammar = ProcessorGrammar.standard.adding(Self.invert)
        #expect(grammar.text.contains("invert([S])") && grammar.text.contains("InvertProcessor"))
        let chain = try grammar.processor(from: "resize(2x2)|>invert")
        let image = KingfisherImage(
            width: 2, height: 2, pixels: [UInt8](repeating: 200, count: 16).enumerated().map { $0.offset % 4 == 3 ? 255 : $0.element })
        let inverted = try chain.process(.image(image), in: ImageProcessingContext())
        #expect(inverted.pixels.prefix(4) == [55, 55, 55, 255])
        #expect(try grammar.processor(from: "invert(0.5)").identifier == InvertProcessor(strength: 0.5).identifier)
        #expect(throws: ImageProcessingError.self) { _ = try grammar.processor(from: "invert(2)") }
        #expect(throws: ImageProcessingError.self, "the standard grammar is left as it was") {
            _ = try ProcessorGrammar.standard.processor(from: "invert")
        }
    }
}
