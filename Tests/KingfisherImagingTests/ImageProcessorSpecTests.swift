// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher
@testable import KingfisherImaging

@Suite(.timeLimit(.minutes(10))) struct ImageProcessorSpecTests {
    @Test func everyFormParsesToItsProcessor() throws {
        let cases: [(String, String)] = [
            ("downsample(400x300)", DownsamplingImageProcessor(size: CGSize(width: 400, height: 300)).identifier),
            ("resize(100x50)", ResizingImageProcessor(referenceSize: CGSize(width: 100, height: 50)).identifier),
            ("resize(100x50,fit)", ResizingImageProcessor(referenceSize: CGSize(width: 100, height: 50), mode: .aspectFit).identifier),
            ("resize(100x50,fill)", ResizingImageProcessor(referenceSize: CGSize(width: 100, height: 50), mode: .aspectFill).identifier),
            ("crop(10x20)", CroppingImageProcessor(size: CGSize(width: 10, height: 20)).identifier),
            ("crop(10x20,0,1)", CroppingImageProcessor(size: CGSize(width: 10, height: 20), anchor: CGPoint(x: 0, y: 1)).identifier),
            ("round(12)", RoundCornerImageProcessor(cornerRadius: 12).identifier),
            (
                "round(50%,64x64,tl+br)",
                RoundCornerImageProcessor(
                    radius: .widthFraction(0.5), targetSize: CGSize(width: 64, height: 64),
                    roundingCorners: [.topLeft, .bottomRight]
                ).identifier
            ),
            ("border(#FF0000,3)", BorderImageProcessor(border: Border(color: .red, lineWidth: 3)).identifier),
            (
                "border(#00FF0080,2,8)",
                BorderImageProcessor(
                    border: Border(
                        color: KingfisherColor(hex: "#00FF0080")!, lineWidth: 2,
                        radius: .point(8))
                ).identifier
            ),
            ("blur(10)", BlurImageProcessor(blurRadius: 10).identifier),
            ("overlay(#0000FF,0.25)", OverlayImageProcessor(overlay: .blue, fraction: 0.25).identifier),
            ("tint(#FFFF0080)", TintImageProcessor(tint: KingfisherColor(hex: "#FFFF0080")!).identifier),
            ("colors(0.1,1.2,0.5,0.7)", ColorControlsProcessor(brightness: 0.1, contrast: 1.2, saturation: 0.5, inputEV: 0.7).identifier),
            ("blackwhite", BlackWhiteProcessor().identifier),
            ("blend(multiply)", BlendImageProcessor(blendMode: .multiply).identifier),
            ("blend(source-atop,0.5,#FFFFFF)", BlendImageProcessor(blendMode: .sourceAtop, alpha: 0.5, backgroundColor: .white).identifier),
        ]
        for (spec, identifier) in cases {
            #expect(try ImageProcessorSpec.processor(from: spec).identifier == identifier, "\(spec)")
        }
    }

    @Test func optionalArgumentsInAnyOrderKeepTheLastGivenAndTakeSigns() throws {
        let cases: [(String, String)] = [
            ("round(16,tl,br)", RoundCornerImageProcessor(cornerRadius: 16, roundingCorners: .bottomRight).identifier),
            ("round(16,+tl)", RoundCornerImageProcessor(cornerRadius: 16, roundingCorners: .topLeft).identifier),
            ("blend(multiply,0.5,0.8)", BlendImageProcessor(blendMode: .multiply, alpha: 0.8).identifier),
            ("blend(multiply,+0.5)", BlendImageProcessor(blendMode: .multiply, alpha: 0.5).identifier),
        ]
        for (spec, identifier) in cases {
            #expect(try ImageProcessorSpec.processor(from: spec).identifier == identifier, "\(spec)")
        }
    }

    @Test func chainsJoinWithTheCompositionOperator() throws {
        let chain = try ImageProcessorSpec.processor(from: "resize(100x100,fit) |> round(10) |> blackwhite")
        let expected =
            ResizingImageProcessor(referenceSize: CGSize(width: 100, height: 100), mode: .aspectFit)
            |> RoundCornerImageProcessor(cornerRadius: 10) |> BlackWhiteProcessor()
        #expect(chain.identifier == expected.identifier)
        #expect(try ImageProcessorSpec.processors(from: "blur(1)|>blur(2)").count == 2)
    }

    @Test(arguments: [
        "", "emboss(2)", "resize(100)", "resize(0x0)", "resize(10x10,stretch)", "blur(1e9)", "blur(abc)",
        "crop(10x10,0.5)", "round(10,xx)", "border(red,2)", "overlay(#FF0000,2)", "colors(1,1,1)",
        "blend(glow)", "resize(10x10", "tint(#12345)", "resize(1000000x1000000)", "blur(nan)",
    ])
    func badSpecsAreRefusedWithTheGrammar(_ spec: String) {
        do {
            _ = try ImageProcessorSpec.processors(from: spec)
            Issue.record("'\(spec)' was accepted")
        } catch let ImageProcessingError.invalidSpec(text, detail) {
            #expect(text == spec)
            #expect(!detail.isEmpty)
            let message = ImageProcessingError.invalidSpec(spec: text, detail: detail).description
            #expect(message.contains("downsample(WxH)") && message.contains("blend(MODE"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}

extension ImageProcessorSpecTests {
    @Test func theGrammarHasOneLinePerStepForm() {
        let lines = ImageProcessorSpec.grammar.split(separator: "\n")
        #expect(lines.first == "SPEC is one or more steps joined by '|>':")
        let names = lines.dropFirst().map { $0.drop(while: { $0 == " " }).prefix(while: { $0.isLetter }) }
        #expect(
            names == [
                "downsample", "resize", "crop", "fill", "round", "border", "blur", "overlay", "tint", "colors", "blackwhite", "blend",
                "rotate", "flip", "extend", "pad", "trim", "sharpen", "pixelate", "background",
                "quality", "progressive", "lossless", "effort", "maxbytes", "keep", "watermark", "dpr", "preset",
            ])
        #expect(
            lines.dropFirst().allSatisfy {
                $0.dropFirst(35).hasSuffix("Processor") || $0.contains("Processor (") || $0.contains("ProcessorChain (")
            })
    }
}

extension ImageProcessorSpecTests {
    /// The command-line tool's documentation carries the grammar's text as it is.
    @Test func theDocumentationListsTheGrammar() throws {
        // Tests/Fixtures → the repository.
        let repository = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
        let page = try String(
            contentsOf: repository.appendingPathComponent("Sources/kf/kf.docc/CommandLineTool.md"), encoding: .utf8)
        #expect(page.contains("```\n\(ImageProcessorSpec.grammar)\n```"), "CommandLineTool.md should list:\n\(ImageProcessorSpec.grammar)")
    }
}
