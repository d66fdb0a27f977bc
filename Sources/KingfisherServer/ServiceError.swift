// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import HTTPTypes
import Kingfisher

/// A request the service answers with an error: the status, and one line saying what happened
/// and to what.
struct ServiceError: Error, Sendable {
    /// The answer's status.
    var status: HTTPResponse.Status
    /// The body: one line.
    var message: String
    /// `Retry-After` seconds, for `503`.
    var retryAfter: Int?
    /// Headers the status calls for (`Allow` for `405`).
    var extraHeaders: [HTTPField.Name: String]

    init(
        _ status: HTTPResponse.Status, _ message: String, retryAfter: Int? = nil,
        extraHeaders: [HTTPField.Name: String] = [:]
    ) {
        self.status = status
        // One printable line, whatever the underlying error printed: a decoded source URL may
        // hold any bytes, and control characters are written as escapes.
        let line = message.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        self.message = Self.printable(line)
        self.retryAfter = retryAfter
        self.extraHeaders = extraHeaders
    }
}

extension HTTPResponse.Status {
    /// `499`, nginx's status for a request whose client closed the connection before the
    /// answer: what the service's metrics and log record for work cancelled that way.
    static let clientClosedRequest = HTTPResponse.Status(code: 499, reasonPhrase: "Client Closed Request")
}

extension ServiceError {
    /// `text` with each control character (C0, DEL, C1) and line or paragraph separator as
    /// `\u{…}`.
    static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var escaped = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                escaped += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }

    /// The answer for a retrieval of `source` that failed with `error`.
    static func retrieving(_ source: URL, failedWith error: KingfisherError) -> ServiceError {
        let url = source.absoluteString.prefix(300)
        if case .redirectRefused(_, let why)? = error.downloadFailure?.reason {
            return ServiceError(.forbidden, "refused to follow a redirect from \(url): \(why)")
        }
        switch error {
        case .responseError(reason: .invalidHTTPStatusCode(let response)):
            let code = response.statusCode
            if code == 404 || code == 410 { return ServiceError(.notFound, "the source \(url) answered \(code)") }
            return ServiceError(.badGateway, "the source \(url) answered \(code)")
        case .responseError(reason: .URLSessionError(let underlying)):
            // The failure's own line says what happened ("timed out after 10 s, with no
            // response: …", "connection refused"); the URL is named once, here.
            let code = error.downloadFailure?.code ?? (underlying as? URLError)?.code
            let status: HTTPResponse.Status =
                switch code {
                case .timedOut?: .gatewayTimeout
                case .dataLengthExceedsMaximum?: .contentTooLarge
                default: .badGateway
                }
            // A transport other than the library's says it in its own error's words.
            let detail = error.downloadFailure?.description ?? (underlying as? URLError)?.localizedDescription ?? "\(underlying)"
            return ServiceError(status, "fetching \(url): \(detail)")
        case .processorError:
            guard let failure = error.decodingFailure else {
                let why = error.processingRefusal?.description ?? error.description
                return ServiceError(.badRequest, "the processing cannot run on \(url): \(why)")
            }
            if let overLimits = overLimits(failure.reason, url) { return overLimits }
            if case .encodingFailed = failure.reason {
                return ServiceError(.internalServerError, "encoding the result of \(url) failed: \(failure.reason.errorDescription)")
            }
            let type = failure.contentType.map { " (\($0))" } ?? ""
            return ServiceError(.unprocessableContent, "the source \(url)\(type) is not a usable image: \(failure.reason.errorDescription)")
        default:
            return ServiceError(.badGateway, "retrieving \(url) failed: \(error.description)")
        }
    }

    /// `413` for a source refused for its pixels, frames or other limits (an SVG's size or
    /// rendering time).
    private static func overLimits(_ reason: ImageCodingError, _ url: Substring) -> ServiceError? {
        switch reason {
        case .tooManyPixels, .tooManyFrames, .overLimit:
            return ServiceError(.contentTooLarge, "the source \(url) is over the limits: \(reason.errorDescription)")
        default:
            return nil
        }
    }
}
