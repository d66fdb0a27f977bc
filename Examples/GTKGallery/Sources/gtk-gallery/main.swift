// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CGtk
import CKingfisherGTK
import Foundation
import KingfisherGTK

let options: GalleryOptions
do {
    options = try GalleryOptions(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("gtk-gallery: \(error)\n".utf8))
    exit(2)
}

MainActor.assumeIsolated {
    GTKMainQueue.attach()
    // Not unique: several galleries (and tests) may run at once, with or without a session bus.
    let application = gtk_application_new("org.kingfisher.GTKGallery", G_APPLICATION_NON_UNIQUE)!
    var gallery: Gallery?
    GLibCallbacks.connect(UnsafeMutableRawPointer(application), signal: "activate") {
        gallery = Gallery(application: application, options: options)
        gallery?.show()
    }
    let status = g_application_run(kf_g_application(UnsafeMutableRawPointer(application)), 0, nil)
    g_object_unref(application)
    exit(status)
}
