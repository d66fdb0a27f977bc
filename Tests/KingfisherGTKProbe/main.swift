// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

// Runs one KingfisherGTK scenario inside a real GTK application (under Xvfb, started by the
// tests) and prints what happened as one JSON object:
//
//   KingfisherGTKProbe main-actor
//       main-actor work of four kinds, started from inside g_application_run: where it ran
//   KingfisherGTKProbe reuse SLOW_URL FAST_URL OUT.png
//       one image view set to SLOW_URL, then at once to FAST_URL; once both requests have
//       ended, the window is written to OUT.png
//   KingfisherGTKProbe animation URL
//       an AnimatedImageView playing URL once: frames shown, loops, and the peak RSS
//   KingfisherGTKProbe textures-and-scale
//       two views shown one image: whether they share a texture; then the scale factor of
//       images loaded into a shown view without and with a scaleFactor option
import CGtk
import CKingfisherGTK
import Foundation
import Kingfisher
import KingfisherGTK

/// What a scenario reports.
@MainActor
final class Report {
    var fields: [String: Any] = [:]

    func print() {
        let data = try! JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }
}

/// Whether the caller runs on the process's main thread, inside GLib's main loop.
@MainActor
func whereItRuns() -> [String: Bool] {
    ["mainThread": Thread.isMainThread, "insideGLibLoop": g_main_depth() > 0]
}

@MainActor
func mainActorScenario(_ application: UnsafeMutablePointer<GtkApplication>, report: Report) {
    // Without a window, the application would end as soon as activate returns.
    g_application_hold(kf_g_application(UnsafeMutableRawPointer(application)))
    Task { @MainActor in
        report.fields["task"] = whereItRuns()
        let mainActorRun: [String: Bool] = await Task.detached { await MainActor.run { whereItRuns() } }.value
        report.fields["mainActorRun"] = mainActorRun
        let dispatchMain: [String: Bool] = await withCheckedContinuation { continuation in
            DispatchQueue.main.async { continuation.resume(returning: MainActor.assumeIsolated { whereItRuns() }) }
        }
        report.fields["dispatchMain"] = dispatchMain
        let answer: Int = await Task.detached { 42 }.value
        report.fields["afterAwaitingOtherWork"] = answer == 42 ? whereItRuns() : [:]
        report.print()
        g_application_release(kf_g_application(UnsafeMutableRawPointer(application)))
    }
}

@MainActor
func reuseScenario(_ application: UnsafeMutablePointer<GtkApplication>, arguments: [String], report: Report) {
    guard arguments.count == 3, let slow = URL(string: arguments[0]), let fast = URL(string: arguments[1]) else {
        FileHandle.standardError.write(Data("usage: KingfisherGTKProbe reuse SLOW_URL FAST_URL OUT.png\n".utf8))
        exit(2)
    }
    let window = gtk_application_window_new(application)!
    gtk_window_set_decorated(kf_gtk_window(UnsafeMutableRawPointer(window)), 0)
    gtk_window_set_default_size(kf_gtk_window(UnsafeMutableRawPointer(window)), 100, 100)
    let view = GTKImageView()
    gtk_window_set_child(kf_gtk_window(UnsafeMutableRawPointer(window)), view.widget)
    gtk_window_present(kf_gtk_window(UnsafeMutableRawPointer(window)))
    var ended = 0
    func requestEnded() {
        ended += 1
        guard ended == 2 else { return }
        // The next frame draws what the view shows now.
        saveWindow(window, to: arguments[2], report: report) { _ = view }
    }
    view.kf.setImage(with: slow) { result in
        switch result {
        case .success: report.fields["slow"] = "shown"
        case .failure(let error):
            if case .imageSettingError(reason: .notCurrentSourceTask) = error {
                report.fields["slow"] = "notCurrentSourceTask"
            } else {
                report.fields["slow"] = "\(error)"
            }
        }
        requestEnded()
    }
    view.kf.setImage(with: fast) { result in
        report.fields["fast"] = (try? result.get()) != nil ? "shown" : "failed"
        requestEnded()
    }
}

/// Writes `window`'s rendering to `path` once drawn (trying again after each frame, for at most
/// 600), prints the report, and closes the window.
@MainActor
func saveWindow(
    _ window: UnsafeMutablePointer<GtkWidget>, to path: String, report: Report, attempt: Int = 1, then done: @escaping @MainActor () -> Void
) {
    GLibCallbacks.afterNextFrame(of: window) {
        var error = [CChar](repeating: 0, count: 512)
        if kf_gtk_widget_save_png(window, path, &error, error.count) == 0 {
            guard attempt >= 600 else { return saveWindow(window, to: path, report: report, attempt: attempt + 1, then: done) }
            report.fields["saveError"] = error.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        }
        report.print()
        gtk_window_destroy(kf_gtk_window(UnsafeMutableRawPointer(window)))
        done()
    }
}

@MainActor
func texturesAndScaleScenario(_ application: UnsafeMutablePointer<GtkApplication>, report: Report) {
    let window = gtk_application_window_new(application)!
    let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
    let views = [GTKImageView(), GTKImageView()]
    for view in views {
        gtk_widget_set_size_request(view.widget, 50, 50)
        gtk_box_append(UnsafeMutableRawPointer(box).assumingMemoryBound(to: GtkBox.self), view.widget)
    }
    gtk_window_set_child(kf_gtk_window(UnsafeMutableRawPointer(window)), box)
    gtk_window_present(kf_gtk_window(UnsafeMutableRawPointer(window)))
    GLibCallbacks.afterNextFrame(of: window) {
        let image = KingfisherImage(width: 2, height: 2, pixels: [UInt8](repeating: 200, count: 16))
        for view in views { view.image = image }
        let shown = views.map { gtk_picture_get_paintable(kf_gtk_picture(UnsafeMutableRawPointer($0.picture))) }
        views[0].image = nil
        views[0].image = image
        let again = gtk_picture_get_paintable(kf_gtk_picture(UnsafeMutableRawPointer(views[0].picture)))
        report.fields["sharedTexture"] = shown[0] != nil && shown[0] == shown[1] && again == shown[0]
        report.fields["widgetScale"] = views[0].scaleFactor
        let data = image.kf.pngRepresentation()!
        views[0].kf.setImage(with: RawImageDataProvider(data: data, cacheKey: "scale-default")) { result in
            report.fields["defaultScale"] = (try? result.get()).map { Double($0.image.scale) } ?? -1
            views[1].kf.setImage(with: RawImageDataProvider(data: data, cacheKey: "scale-given"), options: [.scaleFactor(3)]) { result in
                report.fields["givenScale"] = (try? result.get()).map { Double($0.image.scale) } ?? -1
                report.print()
                gtk_window_destroy(kf_gtk_window(UnsafeMutableRawPointer(window)))
            }
        }
    }
}

@MainActor
func animationScenario(_ application: UnsafeMutablePointer<GtkApplication>, url: URL, report: Report) {
    let window = gtk_application_window_new(application)!
    gtk_window_set_default_size(kf_gtk_window(UnsafeMutableRawPointer(window)), 100, 100)
    let view = AnimatedImageView()
    view.repeatCount = .once
    gtk_window_set_child(kf_gtk_window(UnsafeMutableRawPointer(window)), view.widget)
    gtk_window_present(kf_gtk_window(UnsafeMutableRawPointer(window)))
    var framesShown = Set<Int>()
    GLibCallbacks.everyFrame(of: window) { _ in
        if let index = view.animator?.currentFrameIndex { framesShown.insert(index) }
        return true
    }
    view.onAnimationEnded = {
        report.fields["framesShown"] = framesShown.count
        report.fields["frameCount"] = view.animator?.maxFrameCount ?? 0
        report.fields["peakRSSBytes"] = peakRSS()
        report.print()
        gtk_window_destroy(kf_gtk_window(UnsafeMutableRawPointer(window)))
    }
    view.kf.setImage(with: url) { result in
        if case .failure(let error) = result {
            report.fields["error"] = "\(error)"
            report.print()
            exit(1)
        }
    }
}

/// The process's peak resident set (VmHWM), in bytes.
func peakRSS() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
    return (line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0) * 1024
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let scenario = arguments.first else {
    FileHandle.standardError.write(Data("usage: KingfisherGTKProbe main-actor | reuse SLOW_URL FAST_URL OUT.png\n".utf8))
    exit(2)
}
MainActor.assumeIsolated {
    GTKMainQueue.attach()
    let application = gtk_application_new("org.kingfisher.GTKProbe", G_APPLICATION_NON_UNIQUE)!
    let report = Report()
    GLibCallbacks.connect(UnsafeMutableRawPointer(application), signal: "activate") {
        switch scenario {
        case "main-actor": mainActorScenario(application, report: report)
        case "reuse": reuseScenario(application, arguments: Array(arguments.dropFirst()), report: report)
        case "textures-and-scale": texturesAndScaleScenario(application, report: report)
        case "animation":
            guard arguments.count == 2, let url = URL(string: arguments[1]) else {
                FileHandle.standardError.write(Data("usage: KingfisherGTKProbe animation URL\n".utf8))
                exit(2)
            }
            animationScenario(application, url: url, report: report)
        default:
            FileHandle.standardError.write(Data("KingfisherGTKProbe: no scenario '\(scenario)'\n".utf8))
            exit(2)
        }
    }
    exit(g_application_run(kf_g_application(UnsafeMutableRawPointer(application)), 0, nil))
}
