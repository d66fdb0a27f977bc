// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// One argument of a ``ProcessorStep``: what it is called, what text it takes and its limits,
/// and what leaving it out means. Parsing, the grammar's text, `kf process --help` and the
/// playground's form all read these.
public struct ProcessorStepArgument: Sendable {
    /// The kinds of text an argument takes.
    public enum Kind: Sendable {
        /// `WxH`, both positive and at most ``ImageProcessorSpec/maxSize``: a `CGSize` in points.
        case size
        /// `WxH` as ``size``, but one side may be 0 (free: the other side and the aspect ratio decide).
        case freeSize
        /// A finite number within `range`; `step` is the playground's increment (`nil`: any).
        case number(ClosedRange<CGFloat>, step: CGFloat?)
        /// `#RRGGBB` or `#RRGGBBAA`: a ``KingfisherColor``.
        case color
        /// One of `options`; `labels` gives the playground's wording for some of them.
        case choice([String], labels: [String: String])
        /// `R` points (at most ``ImageProcessorSpec/maxRadius``) or `P%` of the width: a ``Radius``.
        case radius
        /// `all`, or corners joined by `+` (`tl`, `tr`, `bl`, `br`): a ``RectCorner``.
        case corners
        /// `AX,AY`, each 0…1 (two arguments of the text): a `CGPoint` anchor.
        case anchor
        /// A ``CropGravity`` by its name (``CropGravity/named``) or `focus:X:Y`.
        case gravity

        /// How many comma-separated arguments of the text the kind takes.
        var width: Int {
            if case .anchor = self { return 2 }
            return 1
        }
    }

    /// A parsed argument.
    public enum Value: Sendable {
        case size(CGSize)
        case number(CGFloat)
        case color(KingfisherColor)
        case choice(String)
        case radius(Radius)
        case corners(RectCorner)
        case anchor(CGPoint)
        case gravity(CropGravity)
    }

    /// What the argument is, in a word (`width`, `radius`), for the playground; may be empty.
    public let label: String
    /// Its placeholder in the grammar's text (`WxH`, `R|P%`, `#RRGGBB[AA]`).
    public let placeholder: String
    /// The text it takes.
    public let kind: Kind
    /// Whether it may be left out.
    public let isOptional: Bool
    /// The text a left-out argument stands for (`nil`: left out means absent).
    public let defaultValue: String?

    /// A required argument.
    public static func required(_ label: String, _ placeholder: String, _ kind: Kind) -> ProcessorStepArgument {
        ProcessorStepArgument(label: label, placeholder: placeholder, kind: kind, isOptional: false, defaultValue: nil)
    }

    /// An optional argument; left out, it means `defaultValue` (`nil`: absent).
    public static func optional(
        _ label: String, _ placeholder: String, _ kind: Kind, default defaultValue: String? = nil
    ) -> ProcessorStepArgument {
        ProcessorStepArgument(label: label, placeholder: placeholder, kind: kind, isOptional: true, defaultValue: defaultValue)
    }

    /// Parses `text` (for an anchor, its two arguments joined by a comma).
    func parse(_ text: String) throws(ProcessorStepArgument.Refusal) -> Value {
        switch kind {
        case .size:
            return .size(try Self.size(text))
        case .freeSize:
            return .size(try Self.size(text, allowingOneZeroSide: true))
        case .number(let range, _):
            return .number(try Self.number(text, in: range))
        case .color:
            guard text.hasPrefix("#"), let color = KingfisherColor(hex: text) else {
                throw Refusal("'\(text)' is not a colour #RRGGBB or #RRGGBBAA")
            }
            return .color(color)
        case .choice(let options, _):
            guard !options.isEmpty else {
                throw Refusal("there is no \(label.isEmpty ? placeholder : label) '\(text)': none is configured")
            }
            guard options.contains(text) else {
                throw Refusal("\(label.isEmpty ? placeholder : label) must be \(Self.list(options)), not '\(text)'")
            }
            return .choice(text)
        case .radius:
            if text.hasSuffix("%") {
                return .radius(.widthFraction(try Self.number(String(text.dropLast()), in: 0...100) / 100))
            }
            return .radius(.point(try Self.number(text, in: 0...ImageProcessorSpec.maxRadius)))
        case .corners:
            return .corners(try Self.corners(text))
        case .gravity:
            guard let gravity = CropGravity(grammarName: text) else {
                throw Refusal("gravity must be \(Self.list(CropGravity.named.map(\.name) + ["focus:X:Y"])), not '\(text)'")
            }
            return .gravity(gravity)
        case .anchor:
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 2 else { throw Refusal("an anchor is AX,AY") }
            return .anchor(CGPoint(x: try Self.number(String(parts[0]), in: 0...1), y: try Self.number(String(parts[1]), in: 0...1)))
        }
    }

    /// Whether `text` has this argument's shape, for steps whose optional arguments may come in
    /// any order (a size has an `x`, a colour a `#`, corners are letters, a number parses).
    func recognises(_ text: String) -> Bool {
        switch kind {
        case .size, .freeSize: return text.first?.isNumber == true && text.lowercased().contains("x")
        case .color: return text.hasPrefix("#")
        case .corners: return text.contains(where: \.isLetter) && text.allSatisfy { $0.isLetter || $0 == "+" }
        case .choice(let options, _): return options.contains(text)
        case .gravity: return CropGravity(grammarName: text) != nil || text.hasPrefix("focus")
        case .number, .radius, .anchor: return text.first.map { $0.isNumber || "+-.".contains($0) } == true
        }
    }

    /// Why an argument's text was refused.
    struct Refusal: Error {
        let text: String
        init(_ text: String) { self.text = text }
    }

    static func number(_ text: String, in range: ClosedRange<CGFloat>) throws(Refusal) -> CGFloat {
        guard let value = Double(text), value.isFinite else { throw Refusal("'\(text)' is not a number") }
        guard range.contains(CGFloat(value)) else { throw Refusal("\(text) is outside \(range.lowerBound)...\(range.upperBound)") }
        return CGFloat(value)
    }

    static func size(_ text: String, allowingOneZeroSide: Bool = false) throws(Refusal) -> CGSize {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw Refusal("'\(text)' is not a size WxH") }
        let width = try number(String(parts[0]), in: 0...ImageProcessorSpec.maxSize)
        let height = try number(String(parts[1]), in: 0...ImageProcessorSpec.maxSize)
        if allowingOneZeroSide {
            guard width > 0 || height > 0 else { throw Refusal("size \(text) needs a side over 0") }
        } else {
            guard width > 0, height > 0 else { throw Refusal("size \(text) must be positive") }
        }
        return CGSize(width: width, height: height)
    }

    static func corners(_ text: String) throws(Refusal) -> RectCorner {
        if text == "all" { return .all }
        var corners: RectCorner = []
        for part in text.split(separator: "+") {
            switch part {
            case "tl": corners.insert(.topLeft)
            case "tr": corners.insert(.topRight)
            case "bl": corners.insert(.bottomLeft)
            case "br": corners.insert(.bottomRight)
            default: throw Refusal("corner '\(part)' must be tl, tr, bl, br or all")
            }
        }
        guard !corners.isEmpty else { throw Refusal("no corners in '\(text)'") }
        return corners
    }

    static func list(_ options: [String]) -> String {
        options.count < 2 ? options.joined() : options.dropLast().joined(separator: ", ") + " or " + options.last!
    }
}
