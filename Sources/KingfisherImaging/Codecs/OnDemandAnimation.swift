import Foundation

/// Reads an animation's frames in order, each composited on the canvas (GIF, WebP, APNG).
protocol AnimationFrameReader: AnyObject {
    /// The next frame as the whole canvas (RGBA8), or `nil` after the last one.
    func nextFrame() throws -> [UInt8]?
}

/// What a codec leaves to be decoded when asked: how to read the canvas frames from the start,
/// their durations, and how a canvas frame becomes an output frame (the codec's reduction and
/// orientation; ``ImageDecoder`` adds the colour conversion).
struct OnDemandAnimation {
    var durations: [TimeInterval]
    var finish: @Sendable ([UInt8]) -> [UInt8]
    var makeReader: @Sendable () throws -> any AnimationFrameReader

    init(durations: [TimeInterval], finish: @escaping @Sendable ([UInt8]) -> [UInt8],
         makeReader: @escaping @Sendable () throws -> any AnimationFrameReader) {
        self.durations = durations
        self.finish = finish
        self.makeReader = makeReader
    }
}
