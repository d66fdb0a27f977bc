import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP exchange for the downloader. The downloader follows redirects, checks statuses
/// and limits, and times out idle requests itself, so a transport only moves bytes: tests and
/// users can plug in another (for example one over URLSession).
public protocol ImageDownloaderTransport: Sendable {
    /// Sends `request` without following redirects. Calls `didReceiveResponse` with the response
    /// head; when it returns `false`, stops without reading the body. Then calls `didReceiveData`
    /// with each body chunk's bytes (valid only during the call) as it arrives; a throw from it
    /// stops the exchange and is rethrown.
    /// Cancelling the calling task must stop the exchange and release its connection.
    func perform(_ request: URLRequest, acceptingUntrustedCertificates: Bool,
                 didReceiveResponse: (HTTPURLResponse) async throws -> Bool,
                 didReceiveData: (UnsafeRawBufferPointer) throws -> Void) async throws
}
