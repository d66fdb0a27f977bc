// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CGtk
import CKingfisherGTK
import Foundation
import Kingfisher
import KingfisherGTK

/// A scrolling grid of remote images: a `GtkGridView` whose factory reuses cells, each a
/// `GTKImageView` loading with Kingfisher (placeholder, spinner, fade), and an
/// `ImagePrefetcher` loading the next screens ahead of the scroll position.
@MainActor
final class Gallery {
    let options: GalleryOptions
    private let window: UnsafeMutablePointer<GtkWidget>
    private let scroller: UnsafeMutablePointer<GtkWidget>
    /// The image view of each list item (cell) the factory made, by the item's address.
    private var cells: [OpaquePointer: AnimatedImageView] = [:]
    /// Which bound cells have finished loading (successfully or not) their current URL.
    private var settled: [OpaquePointer: Bool] = [:]
    private var prefetcher: ImagePrefetcher?
    private var prefetchedFrom = -1
    private var screenshotTaken = false
    /// Images shown, and requests cancelled because their cell scrolled away, for the summary.
    private var shown = 0
    private var cancelled = 0

    /// Shown while an image loads: mid grey.
    static let placeholder = KingfisherImage(width: 1, height: 1, pixels: [128, 128, 128, 255], hasAlpha: false)
    /// Shown when an image cannot be loaded: dark red.
    static let failureImage = KingfisherImage(width: 1, height: 1, pixels: [160, 0, 0, 255], hasAlpha: false)

    init(application: UnsafeMutablePointer<GtkApplication>, options: GalleryOptions) {
        self.options = options
        window = gtk_application_window_new(application)
        scroller = gtk_scrolled_window_new()
        let css = gtk_css_provider_new()
        // Cells touch: the grid is exactly columns x cell pixels wide.
        gtk_css_provider_load_from_data(css, "gridview, gridview > child { padding: 0; margin: 0; border: none; }", -1)
        gtk_style_context_add_provider_for_display(
            gdk_display_get_default(), OpaquePointer(css), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        g_object_unref(css)
        build()
    }

    private func build() {
        let strings = options.urls.map { strdup($0.absoluteString) } + [nil]
        let list = strings.withUnsafeBufferPointer {
            gtk_string_list_new($0.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: UnsafePointer<CChar>?.self) })
        }
        for string in strings { free(string) }
        let factory = gtk_signal_list_item_factory_new()!
        let factoryObject = UnsafeMutableRawPointer(factory)
        GLibCallbacks.connect(factoryObject, signal: "setup", argumentHandler: { [unowned self] item in self.setUp(OpaquePointer(item!)) })
        GLibCallbacks.connect(factoryObject, signal: "bind", argumentHandler: { [unowned self] item in self.bind(OpaquePointer(item!)) })
        GLibCallbacks.connect(
            factoryObject, signal: "unbind", argumentHandler: { [unowned self] item in self.unbind(OpaquePointer(item!)) })
        GLibCallbacks.connect(
            factoryObject, signal: "teardown", argumentHandler: { [unowned self] item in self.tearDown(OpaquePointer(item!)) })
        let selection = gtk_no_selection_new(list)
        let grid = gtk_grid_view_new(selection, factory)!
        gtk_grid_view_set_min_columns(OpaquePointer(grid), UInt32(options.columns))
        gtk_grid_view_set_max_columns(OpaquePointer(grid), UInt32(options.columns))
        gtk_scrolled_window_set_child(OpaquePointer(scroller), grid)
        gtk_scrolled_window_set_policy(OpaquePointer(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_overlay_scrolling(OpaquePointer(scroller), 1)
        let adjustment = gtk_scrolled_window_get_vadjustment(OpaquePointer(scroller))!
        GLibCallbacks.connect(UnsafeMutableRawPointer(adjustment), signal: "value-changed") { [unowned self] in self.prefetchAhead() }

        let gtkWindow = kf_gtk_window(UnsafeMutableRawPointer(window))
        gtk_window_set_title(gtkWindow, "Kingfisher GTK Gallery")
        gtk_window_set_decorated(gtkWindow, 0)
        let size = options.windowSize ?? (options.columns * options.cell, 3 * options.cell)
        gtk_window_set_default_size(gtkWindow, Int32(size.width), Int32(size.height))
        gtk_window_set_child(gtkWindow, scroller)
    }

    func show() {
        if let megabytes = options.memoryCacheMB {
            ImageCache.default.memoryStorage.config.totalCostLimit = megabytes << 20
        }
        gtk_window_present(kf_gtk_window(UnsafeMutableRawPointer(window)))
        prefetchAhead()
        if let speed = options.autoscroll { scrollToTheEnd(pixelsPerSecond: speed) }
        guard let path = options.screenshot else { return }
        if let seconds = options.screenshotAfter {
            GLibCallbacks.after(seconds: seconds) { [unowned self] in self.takeScreenshot(path) }
        } else {
            // Checked at each frame until every visible cell has settled and drawn.
            _ = GLibCallbacks.everyFrame(of: window) { [unowned self] _ in
                guard !self.screenshotTaken else { return false }
                if self.visibleCellsSettled() { self.takeScreenshot(path) }
                return !self.screenshotTaken
            }
        }
    }

    private func setUp(_ item: OpaquePointer) {
        let view = AnimatedImageView()
        view.kf.indicatorType = .activity
        gtk_widget_set_size_request(view.widget, Int32(options.cell), Int32(options.cell))
        gtk_list_item_set_child(item, view.widget)
        cells[item] = view
    }

    private func bind(_ item: OpaquePointer) {
        guard let view = cells[item], let object = gtk_list_item_get_item(item),
            let text = gtk_string_object_get_string(OpaquePointer(object)), let url = URL(string: String(cString: text))
        else { return }
        settled[item] = false
        var itemOptions: KingfisherOptionsInfo = [.onFailureImage(Self.failureImage)]
        if options.fade > 0 { itemOptions.append(.transition(.fade(options.fade))) }
        view.kf.setImage(with: url, placeholder: Self.placeholder, options: itemOptions) { [weak self] result in
            // A stale request (the cell was rebound) says nothing about the cell.
            if case .failure(let error) = result, case .imageSettingError(reason: .notCurrentSourceTask) = error { return }
            if case .success = result { self?.shown += 1 }
            self?.settled[item] = true
        }
    }

    private func unbind(_ item: OpaquePointer) {
        // The cell scrolled away: its download is not wanted any more.
        if settled[item] == false { cancelled += 1 }
        cells[item]?.kf.cancelDownloadTask()
        settled[item] = nil
    }

    private func tearDown(_ item: OpaquePointer) {
        cells[item] = nil
        settled[item] = nil
    }

    /// Scrolls down at `pixelsPerSecond` on the frame clock; at the end, once the last screen
    /// has loaded, prints the summary and closes the window.
    private func scrollToTheEnd(pixelsPerSecond: Double) {
        var last: Double?
        GLibCallbacks.everyFrame(of: window) { [unowned self] time in
            let adjustment = gtk_scrolled_window_get_vadjustment(OpaquePointer(self.scroller))
            let end = gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment)
            let value = gtk_adjustment_get_value(adjustment)
            if let last, value < end {
                gtk_adjustment_set_value(adjustment, min(end, value + pixelsPerSecond * (time - last)))
            }
            last = time
            guard value >= end, gtk_adjustment_get_upper(adjustment) > 0, self.visibleCellsSettled() else { return true }
            self.printSummary()
            gtk_window_destroy(kf_gtk_window(UnsafeMutableRawPointer(self.window)))
            return false
        }
    }

    private func printSummary() {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let peakKB = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }.flatMap { line in
            line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        }
        let summary: [String: Int] = [
            "items": options.urls.count, "shown": shown, "cancelledRequests": cancelled,
            "peakRSSBytes": (peakKB ?? 0) * 1024,
            "memoryCacheLimitBytes": ImageCache.default.memoryStorage.config.totalCostLimit,
        ]
        let data = (try? JSONSerialization.data(withJSONObject: summary, options: [.sortedKeys])) ?? Data()
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }

    /// Prefetches the two screens below the first visible row.
    private func prefetchAhead() {
        let adjustment = gtk_scrolled_window_get_vadjustment(OpaquePointer(scroller))
        let offset = Int(gtk_adjustment_get_value(adjustment))
        let firstRow = offset / options.cell
        guard firstRow != prefetchedFrom else { return }
        prefetchedFrom = firstRow
        let rowsPerScreen = max(1, Int(gtk_widget_get_height(scroller)) / options.cell + 1)
        let start = min(options.urls.count, (firstRow + rowsPerScreen) * options.columns)
        let end = min(options.urls.count, start + 2 * rowsPerScreen * options.columns)
        prefetcher?.stop()
        prefetcher = ImagePrefetcher(urls: Array(options.urls[start..<end]))
        prefetcher?.start()
    }

    /// Whether every cell on screen has loaded (or failed) and finished its transition.
    private func visibleCellsSettled() -> Bool {
        let viewport = (height: Double(gtk_widget_get_height(scroller)), width: Double(gtk_widget_get_width(scroller)))
        guard viewport.height > 0, !cells.isEmpty else { return false }
        var visible = 0
        for (item, view) in cells where settled[item] != nil {
            var bounds = graphene_rect_t()
            guard gtk_widget_compute_bounds(view.widget, scroller, &bounds) != 0 else { continue }
            let top = Double(bounds.origin.y)
            let bottom = top + Double(bounds.size.height)
            guard bottom > 0, top < viewport.height else { continue }
            visible += 1
            if settled[item] != true { return false }
        }
        return visible > 0 || options.urls.isEmpty
    }

    /// Writes the window's rendering, once drawn, and closes it. A window with nothing drawn
    /// yet (a screenshot asked for at once) is tried again after each frame, for at most 600.
    private func takeScreenshot(_ path: String, attempt: Int = 1) {
        guard attempt > 1 || !screenshotTaken else { return }
        screenshotTaken = true
        GLibCallbacks.afterNextFrame(of: window) { [unowned self] in
            var error = [CChar](repeating: 0, count: 512)
            guard kf_gtk_widget_save_png(self.window, path, &error, error.count) != 0 else {
                guard attempt >= 600 else { return self.takeScreenshot(path, attempt: attempt + 1) }
                let message = error.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
                FileHandle.standardError.write(Data("gtk-gallery: cannot write the screenshot: \(message)\n".utf8))
                exit(1)
            }
            gtk_window_destroy(kf_gtk_window(UnsafeMutableRawPointer(self.window)))
        }
    }
}
