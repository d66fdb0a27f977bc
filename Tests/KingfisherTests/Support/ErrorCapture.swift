import Foundation
@testable import Kingfisher

/// The coding error reason a throwing expression failed with, or nil if it did not fail that way.
func codingErrorReason(_ body: () throws -> Void) -> ImageCodingError? {
    do {
        try body()
        return nil
    } catch let error as ImageCodingError {
        return error
    } catch let KingfisherError.imageCodingError(reason) {
        return reason
    } catch {
        return nil
    }
}

/// The `KingfisherError` an async operation failed with, or `nil` when it succeeded (or failed
/// with another error).
func kingfisherError(_ body: () async throws -> Void) async -> KingfisherError? {
    do {
        try await body()
        return nil
    } catch {
        return error as? KingfisherError
    }
}
