// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherImaging

// Usage: ImagingOnly IMAGE OUTPUT.png
// Decodes IMAGE, decodes it again straight to a 64-pixel thumbnail, applies a processor spec,
// and writes the result as PNG; then shows the error bad data gets.
let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: ImagingOnly IMAGE OUTPUT.png\n".utf8))
    exit(64)
}
do {
    let data = try Data(contentsOf: URL(fileURLWithPath: arguments[1]))
    let image = try KingfisherImage.decode(data: data)
    print("decoded: \(image.format) \(image.pixelWidth)x\(image.pixelHeight), \(image.frames.count) frame(s)")

    let thumbnail = try KingfisherImage.downsampled(data: data, maxPixelSize: 64)
    print("downsampled: \(thumbnail.pixelWidth)x\(thumbnail.pixelHeight)")

    let processor = try ImageProcessorSpec.processor(from: "resize(48x48,fill)|>crop(48x48)|>round(8)")
    let processed = try processor.process(.data(data), in: ImageProcessingContext())
    try processed.encoded(as: .PNG).write(to: URL(fileURLWithPath: arguments[2]))
    print("processed: \(processed.pixelWidth)x\(processed.pixelHeight) with \(processor.identifier)")

    do {
        _ = try KingfisherImage.decode(data: Data("<!doctype html><title>404</title>".utf8))
    } catch let error as ImageCodingError {
        print("refused: \(error)")
    }
} catch {
    FileHandle.standardError.write(Data("ImagingOnly: \(error)\n".utf8))
    exit(1)
}
