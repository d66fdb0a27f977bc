import Foundation

/// Kingfisher's image format: the four cases code written for Kingfisher switches over.
///
/// Every other format (WebP, HEIC, AVIF, JPEG XL, TIFF, BMP, ICO) is `unknown` here, as it is
/// for Kingfisher; ``ImageFileFormat`` names them all.
public enum ImageFormat: Sendable {
    /// The format cannot be recognised or is not one of the three below.
    case unknown
    /// PNG image format.
    case PNG
    /// JPEG image format.
    case JPEG
    /// GIF image format.
    case GIF

    /// Kingfisher's view of a file format: PNG, JPEG and GIF keep their case, the rest are `unknown`.
    public init(_ fileFormat: ImageFileFormat) {
        switch fileFormat {
        case .PNG: self = .PNG
        case .JPEG: self = .JPEG
        case .GIF: self = .GIF
        default: self = .unknown
        }
    }
}

extension KingfisherWrapper where Base == Data {
    /// Gets the image format corresponding to the data, as Kingfisher: `PNG`, `JPEG`, `GIF` or
    /// `unknown` (``imageFileFormat`` names the other formats).
    public var imageFormat: ImageFormat {
        ImageFormat(base.kf.imageFileFormat)
    }
}
