// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// What a photograph's EXIF says about how it was taken: camera, date, exposure, and (only
/// when asked for) where. Read with every offset checked: EXIF arrives from the network.
public struct EXIFSummary: Sendable, Equatable, Codable {
    /// The camera's maker (tag 0x010F).
    public var make: String?
    /// The camera's model (0x0110).
    public var model: String?
    /// Who made the image (0x013B).
    public var artist: String?
    /// The copyright notice (0x8298).
    public var copyright: String?
    /// When it was taken, as EXIF writes it: `YYYY:MM:DD HH:MM:SS` (0x9003).
    public var dateTaken: String?
    /// The exposure time in seconds (0x829A).
    public var exposureTime: Double?
    /// The f-number (0x829D).
    public var fNumber: Double?
    /// The ISO speed (0x8827).
    public var iso: Int?
    /// The focal length in millimetres (0x920A).
    public var focalLength: Double?
    /// The latitude in degrees, north positive (GPS 0x0001-0x0002); only when GPS is asked for.
    public var latitude: Double?
    /// The longitude in degrees, east positive (GPS 0x0003-0x0004); only when GPS is asked for.
    public var longitude: Double?

    /// The summary of the EXIF block of a JPEG, PNG or WebP file (`nil` when it has none, or
    /// one over `maxByteCount`); the position only with `includingGPS`.
    public init?(data: Data, includingGPS: Bool = false, maxByteCount: Int = ImageCreatingOptions.defaultMaxEXIFByteCount) {
        let found = data.withUnsafeBytes { bytes in
            EXIFBlock.locate(in: bytes, maxByteCount: maxByteCount).flatMap { EXIFSummary(tiff: $0, includingGPS: includingGPS) }
        }
        guard let found else { return nil }
        self = found
    }

    /// The summary of a TIFF-structured block (a leading `Exif\0\0` is skipped); `nil` when it
    /// is malformed.
    init?(tiff bytes: UnsafeRawBufferPointer, includingGPS: Bool) {
        guard let layout = TIFFLayout(bytes) else { return nil }
        let main = layout.entries(ofDirectoryAt: layout.firstDirectory)
        let exif = layout.entries(ofDirectoryAt: layout.integer(main[0x8769]))
        make = layout.text(main[0x010F])
        model = layout.text(main[0x0110])
        artist = layout.text(main[EXIFBlock.artistTag])
        copyright = layout.text(main[EXIFBlock.copyrightTag])
        dateTaken = layout.text(exif[0x9003])
        exposureTime = layout.rational(exif[0x829A])
        fNumber = layout.rational(exif[0x829D])
        iso = layout.integer(exif[0x8827])
        focalLength = layout.rational(exif[0x920A])
        if includingGPS {
            let gps = layout.entries(ofDirectoryAt: layout.integer(main[0x8825]))
            func degrees(_ value: Int, _ reference: Int, negative: String) -> Double? {
                guard let d = layout.rational(gps[value], 0), let m = layout.rational(gps[value], 1),
                    let s = layout.rational(gps[value], 2)
                else { return nil }
                let magnitude = d + m / 60 + s / 3600
                return layout.text(gps[reference]) == negative ? -magnitude : magnitude
            }
            latitude = degrees(0x0002, 0x0001, negative: "S")
            longitude = degrees(0x0004, 0x0003, negative: "W")
        }
    }
}
