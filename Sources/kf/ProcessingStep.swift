import Foundation
import Kingfisher

/// One step of a `--processor` spec. The processors issue grows this grammar; for now it knows
/// `downsample(WxH)`.
enum ProcessingStep: Equatable {
    case downsample(width: Double, height: Double)

    struct ParseError: Error, CustomStringConvertible {
        var description: String
    }

    /// Parses steps joined by `|>`, e.g. `downsample(400x400)`. An empty spec has no steps.
    static func parse(_ spec: String) throws -> [ProcessingStep] {
        let trimmed = spec.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return [] }
        return try trimmed.components(separatedBy: "|>").map { try parseStep($0.trimmingCharacters(in: .whitespaces)) }
    }

    private static func parseStep(_ text: String) throws -> ProcessingStep {
        guard let open = text.firstIndex(of: "("), text.hasSuffix(")") else {
            throw ParseError(description: "invalid processor '\(text)': expected name(arguments)")
        }
        let name = text[..<open]
        let arguments = text[text.index(after: open)..<text.index(before: text.endIndex)]
        switch name {
        case "downsample":
            let parts = arguments.lowercased().split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]),
                  w.isFinite, h.isFinite, w > 0, h > 0, max(w, h) <= 65_535 else {
                throw ParseError(description: "invalid size in '\(text)': expected downsample(WxH) with 0 < W, H <= 65535")
            }
            return .downsample(width: w, height: h)
        default:
            throw ParseError(description: "unknown processor '\(name)' (known: downsample)")
        }
    }

    /// Decodes `data` and applies `steps`. A leading downsample decodes straight to the target.
    static func run(_ steps: [ProcessingStep], on data: Data, options: ImageCreatingOptions) throws -> KingfisherImage {
        var remaining = steps[...]
        var image: KingfisherImage
        if case .downsample(let w, let h)? = remaining.first {
            image = try KingfisherImage.downsampled(data: data, maxPixelSize: Int(max(w, h).rounded(.up)), options: options)
            remaining = remaining.dropFirst()
        } else {
            image = try KingfisherImage.decode(data: data, options: options)
        }
        for step in remaining {
            switch step {
            case .downsample(let w, let h):
                image = image.resized(toFit: Int(max(w, h).rounded(.up)))
            }
        }
        return image
    }
}
