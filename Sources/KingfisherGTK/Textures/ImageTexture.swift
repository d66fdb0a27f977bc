// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CGtk
import CKingfisherGTK
import Kingfisher

/// GdkTextures of images' pixels.
///
/// A texture reads the image's own pixel buffer (straight-alpha RGBA, GDK's `R8G8B8A8`
/// format): no copy is made, and the buffer lives until GTK drops the texture. Each image has
/// one texture while it lives, shared by every view showing it, so that a renderer uploads (or
/// converts) its pixels once, however often it is shown again.
@MainActor
enum ImageTexture {
    /// One image's texture, forgotten once the image is gone.
    @MainActor
    private final class Entry {
        weak var image: KingfisherImage?
        let texture: OpaquePointer

        init(image: KingfisherImage, texture: OpaquePointer) {
            self.image = image
            self.texture = texture
        }

        isolated deinit {
            texture.release()
        }
    }

    private static var entries: [ObjectIdentifier: Entry] = [:]

    /// The texture of `image`'s first frame (a new reference: the caller unrefs it).
    static func texture(of image: KingfisherImage) -> OpaquePointer {
        let key = ObjectIdentifier(image)
        if let entry = entries[key], entry.image === image {
            g_object_ref(UnsafeMutableRawPointer(entry.texture))
            return entry.texture
        }
        // Textures of images that are gone hold their pixels: drop them before adding one.
        entries = entries.filter { $0.value.image != nil }
        let texture = self.texture(width: image.pixelWidth, height: image.pixelHeight, pixels: image.pixels)
        entries[key] = Entry(image: image, texture: texture)
        g_object_ref(UnsafeMutableRawPointer(texture))
        return texture
    }

    /// A texture of one frame's pixels (a new reference), not kept: animation frames are shown
    /// once each.
    static func texture(width: Int, height: Int, pixels: [UInt8]) -> OpaquePointer {
        let storage = PixelStorage(pixels)
        let bytes = g_bytes_new_with_free_func(
            storage.baseAddress, gsize(pixels.count),
            { Unmanaged<PixelStorage>.fromOpaque($0!).release() },
            Unmanaged.passRetained(storage).toOpaque())
        let texture = gdk_memory_texture_new(Int32(width), Int32(height), GDK_MEMORY_R8G8B8A8, bytes, gsize(width * 4))!
        g_bytes_unref(bytes)
        return texture
    }
}

/// Keeps an image's pixel array alive for as long as GLib holds bytes pointing into it. The
/// array is immutable, so its buffer does not move.
private final class PixelStorage: @unchecked Sendable {
    let pixels: [UInt8]
    let baseAddress: UnsafeRawPointer?

    init(_ pixels: [UInt8]) {
        self.pixels = pixels
        baseAddress = self.pixels.withUnsafeBytes { UnsafeRawPointer($0.baseAddress) }
    }
}

extension OpaquePointer {
    /// Drops one reference to the GObject this points to.
    func release() {
        g_object_unref(UnsafeMutableRawPointer(self))
    }
}
