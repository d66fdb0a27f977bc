// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

extension ProcessorGrammar {
    /// The built-in steps, one per built-in processor. Sizes and radii are in points; colours
    /// are hex.
    public static let standard = ProcessorGrammar(
        steps: [
            ProcessorStep(
                name: "downsample", summary: "decode smaller, fast", meaning: "DownsamplingImageProcessor",
                arguments: [.required("", "WxH", .size)], example: ["400x400"]
            ) { DownsamplingImageProcessor(size: $0.size(0)) },
            ProcessorStep(
                name: "resize", summary: "fill, fit or stretch to a size",
                meaning: "ResizingImageProcessor (default none; a side of 0 is free; noenlarge: never larger)",
                arguments: [
                    .required("", "WxH", .freeSize),
                    .optional("mode", "fit|fill|none", .choice(["fill", "fit", "none"], labels: ["none": "stretch"]), default: "none"),
                    .optional("", "noenlarge", .choice(["noenlarge"], labels: ["noenlarge": "never enlarge"])),
                ],
                optionalArgumentsInAnyOrder: true, example: ["300x200", "fill", ""]
            ) { values in
                let mode: ContentMode =
                    switch values.choice(1) {
                    case "fit": .aspectFit
                    case "fill": .aspectFill
                    default: .none
                    }
                return ResizingImageProcessor(referenceSize: values.size(0), mode: mode, upscale: values.choice(2) != "noenlarge")
            },
            ProcessorStep(
                name: "crop", summary: "cut out a size",
                meaning: "CroppingImageProcessor (anchor default 0.5,0.5; or a GRAVITY as fill's)",
                arguments: [
                    .required("", "WxH", .size), .optional("anchor", "AX,AY", .anchor, default: "0.5,0.5"),
                    .optional("gravity", "GRAVITY", .gravity),
                ],
                optionalArgumentsInAnyOrder: true, example: ["300x200", "0.5,0.5", ""]
            ) { values in
                values.isGiven(2)
                    ? CroppingImageProcessor(size: values.size(0), gravity: values.gravity(2))
                    : CroppingImageProcessor(size: values.size(0), anchor: values.anchor(1))
            },
            ProcessorStep(
                name: "fill", summary: "fill a size, cut to it",
                meaning:
                    "ResizingImageProcessor (fill) |> CroppingImageProcessor (GRAVITY: center, north, south, east, west, ne, nw, se, sw, smart, entropy or focus:X:Y; default center)",
                arguments: [.required("", "WxH", .size), .optional("gravity", "GRAVITY", .gravity, default: "center")],
                example: ["300x200", "smart"]
            ) { values in
                ImageProcessorChain([
                    ResizingImageProcessor(referenceSize: values.size(0), mode: .aspectFill),
                    CroppingImageProcessor(size: values.size(0), gravity: values.gravity(1)),
                ])
            },
            ProcessorStep(
                name: "round", summary: "round the corners",
                meaning: "RoundCornerImageProcessor (P% of the width; CORNERS: all or tl+tr+bl+br)",
                arguments: [
                    .required("radius", "R|P%", .radius),
                    .optional("size", "WxH", .size),
                    .optional("", "CORNERS", .corners, default: "all"),
                ],
                optionalArgumentsInAnyOrder: true, example: ["16", "", "all"]
            ) { values in
                RoundCornerImageProcessor(
                    radius: values.radius(0), targetSize: values.isGiven(1) ? values.size(1) : nil, roundingCorners: values.corners(2))
            },
            ProcessorStep(
                name: "border", summary: "draw a border", meaning: "BorderImageProcessor (line width W, corner radius R)",
                arguments: [
                    .required("", "#RRGGBB[AA]", .color),
                    .required("width", "W", .number(0...ImageProcessorSpec.maxRadius, step: 1)),
                    .optional("radius", "R", .number(0...ImageProcessorSpec.maxRadius, step: 1), default: "0"),
                ],
                example: ["#FFFFFF", "8", "0"]
            ) { values in
                BorderImageProcessor(
                    border: Border(color: values.color(0) ?? .black, lineWidth: values.number(1), radius: .point(values.number(2))))
            },
            ProcessorStep(
                name: "blur", summary: "Gaussian blur", meaning: "BlurImageProcessor",
                arguments: [.required("radius", "R", .number(0...ImageProcessorSpec.maxBlurRadius, step: 1))], example: ["4"]
            ) { BlurImageProcessor(blurRadius: $0.number(0)) },
            ProcessorStep(
                name: "overlay", summary: "lay a colour over it", meaning: "OverlayImageProcessor (F: 0 solid colour ... 1 image)",
                arguments: [.required("", "#RRGGBB[AA]", .color), .required("image", "F", .number(0...1, step: 0.05))],
                example: ["#0A66C2", "0.7"]
            ) { OverlayImageProcessor(overlay: $0.color(0) ?? .black, fraction: $0.number(1)) },
            ProcessorStep(
                name: "tint", summary: "tint with a colour", meaning: "TintImageProcessor",
                arguments: [.required("", "#RRGGBB[AA]", .color)], example: ["#FF660060"]
            ) { TintImageProcessor(tint: $0.color(0) ?? .clear) },
            ProcessorStep(
                name: "colors", summary: "brightness, contrast, saturation, EV", meaning: "ColorControlsProcessor",
                arguments: [
                    .required("bright", "B", .number(-1...1, step: 0.05)),
                    .required("contrast", "C", .number(0...4, step: 0.05)),
                    .required("saturation", "S", .number(0...4, step: 0.05)),
                    .required("EV", "EV", .number(-10...10, step: 0.1)),
                ],
                example: ["0", "1.1", "1.3", "0"]
            ) { values in
                ColorControlsProcessor(
                    brightness: values.number(0), contrast: values.number(1), saturation: values.number(2), inputEV: values.number(3))
            },
            ProcessorStep(
                name: "blackwhite", summary: "greyscale", meaning: "BlackWhiteProcessor", arguments: []
            ) { _ in BlackWhiteProcessor() },
            ProcessorStep(
                name: "blend", summary: "blend mode, alpha, background",
                meaning: "BlendImageProcessor (MODE: \(CGBlendMode.allCases.map(\.name).joined(separator: ", ")))",
                arguments: [
                    .required("mode", "MODE", .choice(CGBlendMode.allCases.map(\.name), labels: [:])),
                    .optional("alpha", "ALPHA", .number(0...1, step: 0.05), default: "1"),
                    .optional("on", "#BG", .color),
                ],
                optionalArgumentsInAnyOrder: true, example: ["multiply", "1", "#FFCC00"]
            ) { values in
                BlendImageProcessor(
                    blendMode: CGBlendMode(name: values.choice(0)) ?? .normal, alpha: values.number(1), backgroundColor: values.color(2))
            },
            ProcessorStep(
                name: "rotate", summary: "turn clockwise", meaning: "RotatingImageProcessor (exact)",
                arguments: [.required("degrees", "90|180|270", .choice(["90", "180", "270"], labels: [:]))], example: ["90"]
            ) { RotatingImageProcessor(degrees: Int($0.choice(0)) ?? 0) },
            ProcessorStep(
                name: "flip", summary: "mirror", meaning: "FlippingImageProcessor (h: left-right, v: top-bottom)",
                arguments: [.required("", "h|v", .choice(["h", "v"], labels: ["h": "left-right", "v": "top-bottom"]))], example: ["h"]
            ) { FlippingImageProcessor(direction: $0.choice(0) == "v" ? .vertical : .horizontal) },
            ProcessorStep(
                name: "extend", summary: "centre on a larger canvas", meaning: "ExtendingImageProcessor (default transparent)",
                arguments: [.required("", "WxH", .size), .optional("", "#RRGGBB[AA]", .color)], example: ["400x400", "#FFFFFF"]
            ) { ExtendingImageProcessor(size: $0.size(0), backgroundColor: $0.color(1)) },
            ProcessorStep(
                name: "pad", summary: "add margins",
                meaning: "PaddingImageProcessor (as CSS: R defaults to T, B to T, L to R; default transparent)",
                arguments: [
                    .required("top", "T", .number(0...ImageProcessorSpec.maxSize, step: 1)),
                    .optional("right", "R", .number(0...ImageProcessorSpec.maxSize, step: 1)),
                    .optional("bottom", "B", .number(0...ImageProcessorSpec.maxSize, step: 1)),
                    .optional("left", "L", .number(0...ImageProcessorSpec.maxSize, step: 1)),
                    .optional("", "#RRGGBB[AA]", .color),
                ],
                optionalArgumentsInAnyOrder: true, example: ["20", "", "", "", "#FFFFFF"]
            ) { values in
                let top = values.number(0)
                let right = values.isGiven(1) ? values.number(1) : top
                let bottom = values.isGiven(2) ? values.number(2) : top
                let left = values.isGiven(3) ? values.number(3) : right
                return PaddingImageProcessor(top: top, right: right, bottom: bottom, left: left, backgroundColor: values.color(4))
            },
            ProcessorStep(
                name: "trim", summary: "remove a uniform border",
                meaning: "TrimmingImageProcessor (default 10; colour default the top-left pixel's)",
                arguments: [
                    .optional("threshold", "THRESHOLD", .number(0...255, step: 1), default: "\(TrimmingImageProcessor.defaultThreshold)"),
                    .optional("", "#RRGGBB", .color),
                ],
                optionalArgumentsInAnyOrder: true, example: ["10", ""]
            ) { TrimmingImageProcessor(threshold: Int($0.number(0)), color: $0.color(1)) },
            ProcessorStep(
                name: "sharpen", summary: "unsharp mask", meaning: "SharpeningImageProcessor (AMOUNT default 1)",
                arguments: [
                    .required("sigma", "SIGMA", .number(0.1...SharpeningImageProcessor.maxSigma, step: 0.1)),
                    .optional("amount", "AMOUNT", .number(0.1...10, step: 0.1), default: "1"),
                ],
                example: ["1", "1"]
            ) { SharpeningImageProcessor(sigma: $0.number(0), amount: $0.number(1)) },
            ProcessorStep(
                name: "pixelate", summary: "blocks of one colour", meaning: "PixelatingImageProcessor (blocks of N)",
                arguments: [.required("block", "N", .number(1...ImageProcessorSpec.maxRadius, step: 1))], example: ["8"]
            ) { PixelatingImageProcessor(blockSize: $0.number(0)) },
            ProcessorStep(
                name: "background", summary: "flatten onto a colour", meaning: "BackgroundImageProcessor",
                arguments: [.required("", "#RRGGBB", .color)], example: ["#FFFFFF"]
            ) { BackgroundImageProcessor(color: $0.color(0) ?? .white) },
            .outputControl("quality", summary: "encoding quality", meaning: "1-100: JPEG, WebP, AVIF", range: 1...100, example: "60") {
                $0.quality = $1
            },
            ProcessorStep(
                name: "progressive", summary: "progressive JPEG, interlaced PNG", meaning: "OutputControlProcessor", arguments: []
            ) { _ in OutputControlProcessor("progressive") { $0.progressive = true } },
            ProcessorStep(
                name: "lossless", summary: "lossless WebP, AVIF", meaning: "OutputControlProcessor", arguments: []
            ) { _ in OutputControlProcessor("lossless") { $0.lossless = true } },
            .outputControl("effort", summary: "encoding effort", meaning: "0 fastest ... 9 smallest", range: 0...9, example: "6") {
                $0.effort = $1
            },
            .outputControl(
                "maxbytes", summary: "at most N bytes", meaning: "the highest quality that fits", range: 100...1_000_000_000,
                example: "100000"
            ) { $0.maxBytes = $1 },
            ProcessorStep(
                name: "keep", summary: "keep metadata",
                meaning: "icc: ColorProfileKeepingProcessor (no conversion to sRGB); exif, copyright: OutputControlProcessor",
                arguments: [
                    .required(
                        "", "icc|exif|copyright",
                        .choice(
                            ["icc", "exif", "copyright"],
                            labels: ["icc": "colour profile", "exif": "EXIF, orientation 1", "copyright": "artist, copyright"]))
                ],
                example: ["exif"]
            ) { values in
                switch values.choice(0) {
                case "exif": OutputControlProcessor("keep-exif") { $0.keepsEXIF = true }
                case "copyright": OutputControlProcessor("keep-copyright") { $0.keepsCopyright = true }
                default: ColorProfileKeepingProcessor()
                }
            },
            ProcessorStep.watermark(from: []),
            ProcessorStep(
                name: "dpr", summary: "device pixel ratio", meaning: "DevicePixelRatioProcessor (every size in the processing times N)",
                arguments: [.required("ratio", "N", .number(1...DevicePixelRatioProcessor.maxRatio, step: 0.5))], example: ["2"]
            ) { DevicePixelRatioProcessor(ratio: $0.number(0)) },
        ],
        presets: [
            Preset(name: "thumbnail", spec: "resize(300x200,fill)|>crop(300x200)"),
            Preset(name: "avatar", spec: "resize(160x160,fill)|>crop(160x160)|>round(50%)"),
            Preset(name: "framed", spec: "resize(360x360,fit)|>border(#FFFFFF,10,16)"),
            Preset(name: "duotone", spec: "downsample(400x400)|>blackwhite|>tint(#0A66C260)"),
            Preset(name: "blurred", spec: "downsample(400x400)|>blur(8)"),
        ])
}

extension ProcessorStep {
    /// An output step of one whole number, `name(N)`, setting what `set` sets.
    fileprivate static func outputControl(
        _ name: String, summary: String, meaning: String, range: ClosedRange<CGFloat>, example: String,
        _ set: @escaping @Sendable (inout OutputControls, Int) -> Void
    ) -> ProcessorStep {
        ProcessorStep(
            name: name, summary: summary, meaning: "OutputControlProcessor (\(meaning))",
            arguments: [.required("", "N", .number(range, step: 1))], example: [example]
        ) { values in
            let number = Int(values.number(0))
            return OutputControlProcessor("\(name)=\(number)") { set(&$0, number) }
        }
    }
}
