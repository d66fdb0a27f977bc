// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Shows a progressive JPEG as its scans arrive, as Kingfisher's `ImageProgressive`: set it with
/// ``KingfisherOptionsInfoItem/progressiveJPEG(_:)`` or ``KFOptionSetter/progressiveJPEG(_:)``.
///
/// While a progressive JPEG downloads, each complete scan (from the second on) is decoded into a
/// preview, run through the caller's processor and handed to ``onImageUpdated``; an image target
/// then shows what the returned ``UpdatingStrategy`` says, until the final image replaces it.
/// Previews are decoded at a quarter of the image's resolution (their `scale` keeps the final
/// point size), so each costs a fraction of a full decode. Baseline JPEGs and other formats get
/// no previews.
public struct ImageProgressive: Sendable {
    /// What a target shows for a preview.
    public enum UpdatingStrategy: Sendable {
        /// The preview.
        case `default`
        /// Nothing new: the target keeps what it shows.
        case keepCurrent
        /// This image instead (`nil` clears the target).
        case replace(KFCrossPlatformImage?)
    }

    /// ``init()``'s settings.
    @available(*, deprecated, renamed: "init()", message: "Use ImageProgressive() instead.")
    public static let `default` = ImageProgressive(isBlur: true, isFastestScan: true, scanInterval: 0)

    /// Whether early previews (before the sixth scan) are blurred, hiding their blocks. Default `true`.
    public var isBlur: Bool
    /// Whether only the newest scans are decoded when several arrived during one decode; `false`
    /// decodes the last few in order. Default `true`.
    public var isFastestScan: Bool
    /// The least time between two previews, in seconds: scans arriving sooner wait. Default 0.
    public var scanInterval: TimeInterval
    /// Called with each preview. For an image target it is called on the main actor while the
    /// request is current, and its answer says what the target shows (no block: `.default`);
    /// without a target it is called on a queue of the download's own.
    public let onImageUpdated = Delegate<KFCrossPlatformImage, UpdatingStrategy>()

    /// Blurred previews, the newest scan only, no interval.
    public init() {
        self.init(isBlur: true, isFastestScan: true, scanInterval: 0)
    }

    /// Creates the settings.
    public init(isBlur: Bool, isFastestScan: Bool, scanInterval: TimeInterval) {
        self.isBlur = isBlur
        self.isFastestScan = isFastestScan
        self.scanInterval = scanInterval
    }
}
