// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Sharpens images by an unsharp mask (see ``KingfisherWrapper/sharpened(sigma:amount:)``).
/// A sigma over ``maxSigma`` pixels once scaled, or a sigma or amount that is not finite and
/// positive, is refused (``ImageProcessingError/invalidParameter(processor:detail:)``): the work
/// grows with the sigma.
public struct SharpeningImageProcessor: ImageProcessing {
    /// The largest sigma, in pixels: 50.
    public static let maxSigma: CGFloat = 50

    /// `com.onevcat.Kingfisher.SharpeningImageProcessor(<sigma>,<amount>)`.
    public let identifier: String
    /// The standard deviation of the Gaussian neighbourhood, in points.
    public let sigma: CGFloat
    /// How strongly pixels are pushed from their neighbourhood. Default 1.
    public let amount: CGFloat

    /// Creates a sharpening processor of `sigma` points and `amount` (default 1).
    public init(sigma: CGFloat, amount: CGFloat = 1) {
        self.sigma = sigma
        self.amount = amount
        identifier = "com.onevcat.Kingfisher.SharpeningImageProcessor(\(sigma),\(amount))"
    }

    /// Processes `item` as the type describes; a `.data` item is decoded first.
    public func process(_ item: ImageProcessItem, in context: ImageProcessingContext) throws -> KingfisherImage {
        let pixels = sigma * context.scaleFactor
        guard pixels.isFinite, pixels > 0, pixels <= Self.maxSigma, amount.isFinite, amount > 0 else {
            throw ImageProcessingError.invalidParameter(
                processor: identifier,
                detail: "sigma must be over 0 and at most \(Self.maxSigma) pixels (it is \(pixels)), amount over 0 (it is \(amount))")
        }
        return try processDecodingData(item, in: context) { $0.kf.sharpened(sigma: sigma, amount: amount) }
    }
}
