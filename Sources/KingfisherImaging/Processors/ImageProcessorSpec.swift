// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Builds processors from a compact text form, so a command line or a URL can carry a chain:
/// `downsample(400x400)|>round(20)|>blur(4)`. Sizes are in points, colours are hex.
public enum ImageProcessorSpec {
    /// The grammar, as shown in error messages: one line per step form.
    public static let grammar =
        "SPEC is one or more steps joined by '|>':\n"
        + forms.map { "  " + $0.syntax.padding(toLength: 33, withPad: " ", startingAt: 0) + $0.meaning }.joined(separator: "\n")

    /// The largest size argument: 100 000 points a side (the output must also stay within the
    /// options' `maxPixelCount` when the processor runs).
    public static let maxSize: CGFloat = 100_000
    /// The largest corner radius or border width: 10 000 points.
    public static let maxRadius: CGFloat = 10_000
    /// The largest blur radius: ``BlurImageProcessor/maxBlurRadius`` (1 000), in points; the
    /// processor refuses a radius over 1 000 pixels once scaled (at scale 1, the same).
    public static let maxBlurRadius: CGFloat = BlurImageProcessor.maxBlurRadius
    /// The default most steps in one spec: 32.
    public static let defaultMaxStepCount = 32

    /// The processors of `spec`, in order; a spec of more than `maxStepCount` steps (default
    /// ``defaultMaxStepCount``) is refused before any step is parsed.
    ///
    /// - Throws: ``ImageProcessingError/invalidSpec(spec:detail:)``.
    public static func processors(from spec: String, maxStepCount: Int = defaultMaxStepCount) throws -> [any ImageProcessing] {
        guard !spec.trimmingCharacters(in: .whitespaces).isEmpty else { throw invalid(spec, "it is empty") }
        // Counted on the bytes, so that a hostile spec of a million steps is never split.
        let stepCount = Self.stepCount(spec)
        guard stepCount <= maxStepCount else {
            throw invalid(String(spec.prefix(200)), "it has \(stepCount) steps, over the limit of \(maxStepCount)")
        }
        let steps = spec.components(separatedBy: "|>").map { $0.trimmingCharacters(in: .whitespaces) }
        return try steps.map { step in
            do {
                return try parseStep(step)
            } catch let detail as Detail {
                throw invalid(spec, "in '\(step)': \(detail.text)")
            }
        }
    }

    /// 1 + the number of "|>" separators, counted on the UTF-8 bytes.
    private static func stepCount(_ spec: String) -> Int {
        var spec = spec
        return spec.withUTF8 { bytes in
            var count = 1
            var index = 1
            while index < bytes.count {
                if bytes[index] == 0x3E, bytes[index - 1] == 0x7C { count += 1 }
                index += 1
            }
            return count
        }
    }

    /// One processor running every step of `spec` in order, at most `maxStepCount` of them
    /// (default ``defaultMaxStepCount``). Its identifier is the one Kingfisher gives `a |> b |> …`
    /// of the same processors.
    ///
    /// - Throws: ``ImageProcessingError/invalidSpec(spec:detail:)``.
    public static func processor(from spec: String, maxStepCount: Int = defaultMaxStepCount) throws -> ImageProcessorChain {
        ImageProcessorChain(try processors(from: spec, maxStepCount: maxStepCount))
    }

    private struct Detail: Error {
        var text: String
    }

    private static func invalid(_ spec: String, _ detail: String) -> ImageProcessingError {
        .invalidSpec(spec: spec, detail: detail)
    }

    /// One form of step: its name, how many arguments it takes, and how they make a processor.
    private struct StepForm: Sendable {
        let name: String
        let syntax: String
        let meaning: String
        let argumentCount: ClosedRange<Int>
        let build: @Sendable ([String]) throws -> any ImageProcessing
    }

    private static let forms: [StepForm] = [
        StepForm(
            name: "downsample", syntax: "downsample(WxH)", meaning: "DownsamplingImageProcessor",
            argumentCount: 1...1
        ) { DownsamplingImageProcessor(size: try size($0[0])) },
        StepForm(
            name: "resize", syntax: "resize(WxH[,fit|fill|none])", meaning: "ResizingImageProcessor (default none)",
            argumentCount: 1...2
        ) { arguments in
            let mode = try arguments.count > 1 ? contentMode(arguments[1]) : ContentMode.none
            return ResizingImageProcessor(referenceSize: try size(arguments[0]), mode: mode)
        },
        StepForm(
            name: "crop", syntax: "crop(WxH[,AX,AY])", meaning: "CroppingImageProcessor (anchor default 0.5,0.5)",
            argumentCount: 1...3
        ) { arguments in
            guard arguments.count != 2 else { throw Detail(text: "crop takes WxH or WxH,AX,AY") }
            let anchor =
                arguments.count == 3
                ? CGPoint(x: try number(arguments[1], in: 0...1), y: try number(arguments[2], in: 0...1))
                : CGPoint(x: 0.5, y: 0.5)
            return CroppingImageProcessor(size: try size(arguments[0]), anchor: anchor)
        },
        StepForm(
            name: "round", syntax: "round(R|P%[,WxH][,CORNERS])",
            meaning: "RoundCornerImageProcessor (P% of the width; CORNERS: all or tl+tr+bl+br)",
            argumentCount: 1...3
        ) { arguments in
            var targetSize: CGSize?
            var corners = RectCorner.all
            for argument in arguments.dropFirst() {
                if argument.contains("x") && argument.first?.isNumber == true {
                    targetSize = try size(argument)
                } else {
                    corners = try rectCorners(argument)
                }
            }
            return RoundCornerImageProcessor(radius: try radius(arguments[0]), targetSize: targetSize, roundingCorners: corners)
        },
        StepForm(
            name: "border", syntax: "border(#RRGGBB[AA],W[,R])", meaning: "BorderImageProcessor (line width W, corner radius R)",
            argumentCount: 2...3
        ) { arguments in
            let cornerRadius = arguments.count > 2 ? try number(arguments[2], in: 0...maxRadius) : 0
            return BorderImageProcessor(
                border: Border(
                    color: try color(arguments[0]),
                    lineWidth: try number(arguments[1], in: 0...maxRadius),
                    radius: .point(cornerRadius)))
        },
        StepForm(
            name: "blur", syntax: "blur(R)", meaning: "BlurImageProcessor",
            argumentCount: 1...1
        ) { BlurImageProcessor(blurRadius: try number($0[0], in: 0...maxBlurRadius)) },
        StepForm(
            name: "overlay", syntax: "overlay(#RRGGBB[AA],F)", meaning: "OverlayImageProcessor (F: 0 solid colour ... 1 image)",
            argumentCount: 2...2
        ) { OverlayImageProcessor(overlay: try color($0[0]), fraction: try number($0[1], in: 0...1)) },
        StepForm(
            name: "tint", syntax: "tint(#RRGGBB[AA])", meaning: "TintImageProcessor",
            argumentCount: 1...1
        ) { TintImageProcessor(tint: try color($0[0])) },
        StepForm(
            name: "colors", syntax: "colors(B,C,S,EV)", meaning: "ColorControlsProcessor",
            argumentCount: 4...4
        ) { arguments in
            ColorControlsProcessor(
                brightness: try number(arguments[0], in: -1...1), contrast: try number(arguments[1], in: 0...4),
                saturation: try number(arguments[2], in: 0...4), inputEV: try number(arguments[3], in: -10...10))
        },
        StepForm(
            name: "blackwhite", syntax: "blackwhite", meaning: "BlackWhiteProcessor",
            argumentCount: 0...0
        ) { _ in BlackWhiteProcessor() },
        StepForm(
            name: "blend", syntax: "blend(MODE[,ALPHA][,#BG])",
            meaning: "BlendImageProcessor (MODE: \(CGBlendMode.allCases.map(\.name).joined(separator: ", ")))",
            argumentCount: 1...3
        ) { arguments in
            guard let mode = CGBlendMode(name: arguments[0]) else { throw Detail(text: "unknown blend mode '\(arguments[0])'") }
            var alpha: CGFloat = 1
            var background: KingfisherColor?
            for argument in arguments.dropFirst() {
                if argument.hasPrefix("#") { background = try color(argument) } else { alpha = try number(argument, in: 0...1) }
            }
            return BlendImageProcessor(blendMode: mode, alpha: alpha, backgroundColor: background)
        },
    ]

    private static let formsByName = Dictionary(uniqueKeysWithValues: forms.map { ($0.name, $0) })

    private static func parseStep(_ step: String) throws -> any ImageProcessing {
        let name: Substring
        var arguments: [String] = []
        if let open = step.firstIndex(of: "(") {
            guard step.hasSuffix(")") else { throw Detail(text: "missing ')'") }
            name = step[..<open]
            let inner = step[step.index(after: open)..<step.index(before: step.endIndex)]
            arguments = inner.split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            if arguments == [""] { arguments = [] }
        } else {
            name = Substring(step)
        }
        guard let form = formsByName[String(name)] else { throw Detail(text: "unknown processor '\(name)'") }
        let range = form.argumentCount
        guard range.contains(arguments.count) else {
            let expected = range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound) to \(range.upperBound)"
            throw Detail(text: "\(name) takes \(expected) arguments, got \(arguments.count)")
        }
        return try form.build(arguments)
    }

    private static func number(_ text: String, in range: ClosedRange<CGFloat>) throws -> CGFloat {
        guard let value = Double(text), value.isFinite else { throw Detail(text: "'\(text)' is not a number") }
        guard range.contains(CGFloat(value)) else { throw Detail(text: "\(text) is outside \(range.lowerBound)...\(range.upperBound)") }
        return CGFloat(value)
    }

    private static func size(_ text: String) throws -> CGSize {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw Detail(text: "'\(text)' is not a size WxH") }
        let width = try number(String(parts[0]), in: 0...maxSize)
        let height = try number(String(parts[1]), in: 0...maxSize)
        guard width > 0, height > 0 else { throw Detail(text: "size \(text) must be positive") }
        return CGSize(width: width, height: height)
    }

    private static func contentMode(_ text: String) throws -> ContentMode {
        switch text {
        case "fit": return .aspectFit
        case "fill": return .aspectFill
        case "none": return .none
        default: throw Detail(text: "content mode must be fit, fill or none, not '\(text)'")
        }
    }

    private static func radius(_ text: String) throws -> Radius {
        if text.hasSuffix("%") {
            return .widthFraction(try number(String(text.dropLast()), in: 0...100) / 100)
        }
        return .point(try number(text, in: 0...maxRadius))
    }

    private static func rectCorners(_ text: String) throws -> RectCorner {
        if text == "all" { return .all }
        var corners: RectCorner = []
        for part in text.split(separator: "+") {
            switch part {
            case "tl": corners.insert(.topLeft)
            case "tr": corners.insert(.topRight)
            case "bl": corners.insert(.bottomLeft)
            case "br": corners.insert(.bottomRight)
            default: throw Detail(text: "corner '\(part)' must be tl, tr, bl, br or all")
            }
        }
        guard !corners.isEmpty else { throw Detail(text: "no corners in '\(text)'") }
        return corners
    }

    private static func color(_ text: String) throws -> KingfisherColor {
        guard text.hasPrefix("#"), let color = KingfisherColor(hex: text) else {
            throw Detail(text: "'\(text)' is not a colour #RRGGBB or #RRGGBBAA")
        }
        return color
    }
}
