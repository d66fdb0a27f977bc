import Foundation

extension Duration {
    /// The duration in seconds.
    package var seconds: TimeInterval {
        TimeInterval(components.seconds) + TimeInterval(components.attoseconds) / 1e18
    }
}
