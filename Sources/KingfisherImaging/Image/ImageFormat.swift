import Foundation

/// The image format of a blob of bytes, recognised from its leading "magic" bytes.
///
/// Kingfisher on Apple platforms knows `unknown`, `PNG`, `JPEG` and `GIF`. This library decodes
/// and encodes WebP as well, and recognises HEIC, AVIF, BMP and TIFF so that such a file is
/// refused with an error naming what it is (``ImageCodingError/unsupportedFormat(_:)``)
/// instead of a vague "not an image".
public enum ImageFormat: String, Sendable, CaseIterable, CustomStringConvertible {
    /// The format cannot be recognised or is not supported.
    case unknown
    /// PNG image format.
    case PNG
    /// JPEG image format.
    case JPEG
    /// GIF image format.
    case GIF
    /// WebP image format (lossy, lossless, animated).
    case WebP
    /// HEIF/HEIC image (recognised, not decoded).
    case HEIC
    /// AVIF image (recognised, not decoded).
    case AVIF
    /// Windows bitmap (recognised, not decoded).
    case BMP
    /// TIFF image (recognised, not decoded).
    case TIFF

    /// Whether this library can decode and encode the format.
    public var isSupported: Bool {
        switch self {
        case .PNG, .JPEG, .GIF, .WebP: return true
        case .unknown, .HEIC, .AVIF, .BMP, .TIFF: return false
        }
    }

    /// The usual file extension for the format, without the dot (`"png"`, `"jpg"`, …); `nil` for `unknown`.
    public var fileExtension: String? {
        switch self {
        case .unknown: return nil
        case .PNG: return "png"
        case .JPEG: return "jpg"
        case .GIF: return "gif"
        case .WebP: return "webp"
        case .HEIC: return "heic"
        case .AVIF: return "avif"
        case .BMP: return "bmp"
        case .TIFF: return "tiff"
        }
    }

    /// The format's name as people write it (`"PNG"`, `"WebP"`, …).
    public var description: String {
        self == .unknown ? "unknown" : rawValue
    }

    /// Recognises a format from its leading bytes. Needs at least 8 bytes for a positive answer
    /// (12 for WebP and the ISO-BMFF formats); anything shorter or unrecognised is `unknown`.
    /// HEIF files whose major brand is the generic `mif1`/`msf1` are AVIF when an AVIF brand is
    /// among the compatible brands of the first 64 bytes.
    public init<Bytes: Collection<UInt8>>(magicBytes bytes: Bytes) {
        let head = Array(bytes.prefix(64))
        self = ImageFormat.recognise(head + [UInt8](repeating: 0, count: max(0, 12 - head.count)), count: head.count)
    }

    private static func recognise(_ b: [UInt8], count: Int) -> ImageFormat {
        guard count >= 8 else { return .unknown }
        if b[0] == 0x89, b[1] == 0x50, b[2] == 0x4E, b[3] == 0x47,
           b[4] == 0x0D, b[5] == 0x0A, b[6] == 0x1A, b[7] == 0x0A {
            return .PNG
        }
        if b[0] == 0xFF, b[1] == 0xD8, b[2] == 0xFF { return .JPEG }
        if b[0] == 0x47, b[1] == 0x49, b[2] == 0x46, b[3] == 0x38 { return .GIF }
        if b[0] == 0x42, b[1] == 0x4D { return .BMP }
        if (b[0] == 0x49 && b[1] == 0x49 && b[2] == 0x2A && b[3] == 0x00)
            || (b[0] == 0x4D && b[1] == 0x4D && b[2] == 0x00 && b[3] == 0x2A) {
            return .TIFF
        }
        guard count >= 12 else { return .unknown }
        if b[0...3] == [0x52, 0x49, 0x46, 0x46], b[8...11] == [0x57, 0x45, 0x42, 0x50] { return .WebP }
        if b[4...7] == [0x66, 0x74, 0x79, 0x70] {  // ISO-BMFF "ftyp" box: the major brand follows
            let brand = { (at: Int) in String(decoding: b[at..<at + 4], as: UTF8.self) }
            switch brand(8) {
            case "avif", "avis": return .AVIF
            case "mif1", "msf1":
                // Compatible brands follow the major brand and minor version, up to the box's end.
                let boxEnd = min(count, Int(b[0]) << 24 | Int(b[1]) << 16 | Int(b[2]) << 8 | Int(b[3]))
                let compatible = Swift.stride(from: 16, to: boxEnd - 3, by: 4).map(brand)
                return compatible.contains("avif") || compatible.contains("avis") ? .AVIF : .HEIC
            case "heic", "heix", "heim", "heis", "hevc", "hevx": return .HEIC
            default: return .unknown
            }
        }
        return .unknown
    }
}

extension KingfisherWrapper where Base == Data {
    /// Gets the image format corresponding to the data, from its magic bytes.
    public var imageFormat: ImageFormat {
        ImageFormat(magicBytes: base)
    }
}
