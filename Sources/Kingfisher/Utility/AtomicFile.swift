import Foundation

/// Writes files so that readers see either the old file or the complete new one, never a part:
/// the bytes go to a temporary file in the same directory, which is then renamed over the target.
public enum AtomicFile {
    /// Writes `data` to `path` atomically. On failure the temporary file is removed and the
    /// target is left as it was.
    public static func write(_ data: Data, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            try data.write(to: temporary)
            guard rename(temporary.path, url.path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path,
                    NSLocalizedDescriptionKey: "cannot rename into \(path): \(String(cString: strerror(errno)))"])
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }
}
