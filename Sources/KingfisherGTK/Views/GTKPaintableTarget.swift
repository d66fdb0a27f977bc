// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CGtk
import Kingfisher

/// Any widget that shows a `GdkPaintable` as an image target: a `GtkImage`
/// (`gtk_image_set_from_paintable`), a `GtkPicture`, a widget of your own. It gets Kingfisher's
/// `kf.setImage(with:placeholder:options:progressBlock:completionHandler:)` (image placeholders,
/// no indicator or transition: those need ``GTKImageView``'s overlay), `kf.cancelDownloadTask()`
/// and `kf.taskIdentifier`, and works with `KF.Builder.set(to:)`.
///
/// ```swift
/// let icon = gtk_image_new()!
/// let target = GTKPaintableTarget(widget: icon) { gtk_image_set_from_paintable(OpaquePointer(icon), $0) }
/// target.kf.setImage(with: url)
/// ```
@MainActor
public final class GTKPaintableTarget: KingfisherHasImageComponent {
    /// The widget showing the image.
    public let widget: UnsafeMutablePointer<GtkWidget>
    private let showPaintable: @MainActor (OpaquePointer?) -> Void

    /// A target showing images in `widget` through `showPaintable`, which gets a `GdkPaintable`
    /// (a texture of the image; `nil` for none) and must take its own reference to keep it.
    /// The target holds a reference to `widget`.
    public init(widget: UnsafeMutablePointer<GtkWidget>, showPaintable: @escaping @MainActor (OpaquePointer?) -> Void) {
        GTKMainQueue.attach()
        self.widget = widget
        g_object_ref_sink(widget)
        self.showPaintable = showPaintable
    }

    isolated deinit {
        g_object_unref(widget)
    }

    /// The image shown; setting it shows its texture.
    public var image: KingfisherImage? {
        didSet {
            guard let image else { return showPaintable(nil) }
            let texture = ImageTexture.texture(of: image)
            showPaintable(texture)
            texture.release()
        }
    }
}
