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
                name: "resize", summary: "fill, fit or stretch to a size", meaning: "ResizingImageProcessor (default none)",
                arguments: [
                    .required("", "WxH", .size),
                    .optional("mode", "fit|fill|none", .choice(["fill", "fit", "none"], labels: ["none": "stretch"]), default: "none"),
                ],
                example: ["300x200", "fill"]
            ) { values in
                let mode: ContentMode =
                    switch values.choice(1) {
                    case "fit": .aspectFit
                    case "fill": .aspectFill
                    default: .none
                    }
                return ResizingImageProcessor(referenceSize: values.size(0), mode: mode)
            },
            ProcessorStep(
                name: "crop", summary: "cut out a size", meaning: "CroppingImageProcessor (anchor default 0.5,0.5)",
                arguments: [.required("", "WxH", .size), .optional("anchor", "AX,AY", .anchor, default: "0.5,0.5")],
                example: ["300x200", "0.5,0.5"]
            ) { CroppingImageProcessor(size: $0.size(0), anchor: $0.anchor(1)) },
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
        ],
        presets: [
            Preset(name: "thumbnail", spec: "resize(300x200,fill)|>crop(300x200)"),
            Preset(name: "avatar", spec: "resize(160x160,fill)|>crop(160x160)|>round(50%)"),
            Preset(name: "framed", spec: "resize(360x360,fit)|>border(#FFFFFF,10,16)"),
            Preset(name: "duotone", spec: "downsample(400x400)|>blackwhite|>tint(#0A66C260)"),
            Preset(name: "blurred", spec: "downsample(400x400)|>blur(8)"),
        ])
}
