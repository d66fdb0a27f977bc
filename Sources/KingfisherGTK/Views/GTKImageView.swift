// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CGtk
import CKingfisherGTK
import Kingfisher

/// The image view of GTK programs, as `UIImageView` is Kingfisher's: a `GtkPicture` showing
/// ``image`` aspect-fit, inside a `GtkOverlay` that also holds the placeholder and the
/// activity indicator. Load into it with `imageView.kf.setImage(with: url)`.
///
/// Add ``widget`` to a container. The view holds a reference to its widgets for as long as it
/// lives; keep the view (not only the widget) while you use it.
@MainActor
open class GTKImageView: KingfisherCompatible, Sendable {
    /// The widget to add to a container: a `GtkOverlay`.
    public let widget: UnsafeMutablePointer<GtkWidget>
    /// The `GtkPicture` showing the image (to set its content fit, or `can-shrink`).
    public let picture: UnsafeMutablePointer<GtkWidget>

    /// The image shown; `nil` shows nothing. Setting it ends a running transition.
    open var image: KingfisherImage? {
        didSet {
            guard image !== oldValue || transition != nil else { return }
            transition?.finish()
            showImage()
        }
    }

    /// The request state of `kf.setImage`:
    /// what shows while it loads.
    var placeholder: (any Placeholder)? {
        willSet { placeholder?.remove(from: self) }
        didSet { placeholder?.add(to: self) }
    }
    var indicatorType: IndicatorType = .none
    var indicator: (any Indicator)? {
        willSet { indicator.map { removeOverlay($0.view) } }
        didSet { indicator.map(addIndicator) }
    }
    /// The transition running, if any.
    var transition: RunningTransition?

    /// A view showing `image` (default none).
    public init(image: KingfisherImage? = nil) {
        GTKMainQueue.attach()
        widget = gtk_overlay_new()
        g_object_ref_sink(widget)
        picture = gtk_picture_new()
        gtk_picture_set_can_shrink(kf_gtk_picture(picture), 1)
        gtk_picture_set_content_fit(kf_gtk_picture(picture), GTK_CONTENT_FIT_CONTAIN)
        gtk_overlay_set_child(kf_gtk_overlay(widget), picture)
        self.image = image
        showImage()
    }

    isolated deinit {
        transition?.finish()
        g_object_unref(widget)
    }

    /// The scale factor of the screen the view is on (1 until it is shown).
    public var scaleFactor: Int { Int(gtk_widget_get_scale_factor(widget)) }

    /// Puts `child` over the picture, filling the view.
    func addOverlay(_ child: UnsafeMutablePointer<GtkWidget>) {
        guard gtk_widget_get_parent(child) != widget else { return }
        gtk_widget_set_halign(child, GTK_ALIGN_FILL)
        gtk_widget_set_valign(child, GTK_ALIGN_FILL)
        gtk_overlay_add_overlay(kf_gtk_overlay(widget), child)
    }

    /// Takes `child` out of the overlay, if it is there.
    func removeOverlay(_ child: UnsafeMutablePointer<GtkWidget>) {
        guard gtk_widget_get_parent(child) == widget else { return }
        gtk_overlay_remove_overlay(kf_gtk_overlay(widget), child)
    }

    /// Puts the indicator over the picture, centred and sized as it asks.
    private func addIndicator(_ indicator: any Indicator) {
        let view = indicator.view
        switch indicator.sizeStrategy(in: self) {
        case .intrinsicSize:
            gtk_widget_set_halign(view, GTK_ALIGN_CENTER)
            gtk_widget_set_valign(view, GTK_ALIGN_CENTER)
        case .full:
            gtk_widget_set_halign(view, GTK_ALIGN_FILL)
            gtk_widget_set_valign(view, GTK_ALIGN_FILL)
        case .size(let size):
            gtk_widget_set_halign(view, GTK_ALIGN_CENTER)
            gtk_widget_set_valign(view, GTK_ALIGN_CENTER)
            gtk_widget_set_size_request(view, Int32(size.width), Int32(size.height))
        }
        let offset = indicator.centerOffset
        gtk_widget_set_margin_start(view, Int32(max(0, offset.x * 2)))
        gtk_widget_set_margin_end(view, Int32(max(0, -offset.x * 2)))
        gtk_widget_set_margin_top(view, Int32(max(0, offset.y * 2)))
        gtk_widget_set_margin_bottom(view, Int32(max(0, -offset.y * 2)))
        gtk_widget_set_visible(view, 0)
        gtk_overlay_add_overlay(kf_gtk_overlay(widget), view)
    }

    /// Shows ``image`` in the picture.
    func showImage() {
        guard let image else {
            gtk_picture_set_paintable(kf_gtk_picture(picture), nil)
            return
        }
        let texture = ImageTexture.texture(of: image)
        gtk_picture_set_paintable(kf_gtk_picture(picture), texture)
        texture.release()
    }

    /// Shows `paintable` (a transition's) without changing ``image``.
    func showPaintable(_ paintable: OpaquePointer?) {
        gtk_picture_set_paintable(kf_gtk_picture(picture), paintable)
    }
}

/// The image view type of Kingfisher's API.
public typealias KFCrossPlatformImageView = GTKImageView
