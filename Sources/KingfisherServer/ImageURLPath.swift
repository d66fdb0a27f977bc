// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// The parts of `/{signature}/{processing}/{source}[.{ext}]`, as sent.
///
/// Parsing checks only the shape, so the signature is checked before anything the path carries
/// is decoded: an unsigned request learns nothing else.
public struct ImageURLPath: Sendable, Hashable {
    /// The first segment: a signature, or `unsafe`.
    public var signature: Substring
    /// What the signature covers: the rest of the path from its leading `/`, exactly as sent.
    public var signedPart: Substring
    /// The processing segment as sent: percent-encoded, or `-` for none.
    public var processingSegment: Substring
    /// The source segment as sent: base64url, with the optional `.{ext}`.
    public var sourceSegment: Substring

    /// What an image URL asks for, decoded.
    public struct Decoded: Sendable, Hashable {
        /// The processing spec, percent-decoded, without its `expires(…)` step; `nil` for `-`
        /// (none).
        public var processing: String?
        /// When the URL stops being served: its `expires(UNIX_SECONDS)` step; `nil` for never.
        public var expires: Date?
        /// The source URL.
        public var source: URL
        /// The format the `.{ext}` named, if any.
        public var format: OutputFormat?
    }

    /// Why a path is not an image URL; the text is the one-line answer.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        /// One line saying what is wrong with the path.
        public var description: String
    }

    /// Splits `path` (the request target's path, without the query) into its segments.
    ///
    /// - Throws: ``Problem`` for a path of any other shape.
    public init(path: Substring) throws(Problem) {
        let segments = path.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false)
        // "", signature, processing, source
        guard segments.count == 4, segments[0].isEmpty, !segments[1].isEmpty, !segments[2].isEmpty, !segments[3].isEmpty,
            !segments[3].contains("/")
        else {
            throw Problem(description: "no such page: image URLs are /SIGNATURE/PROCESSING/SOURCE[.EXT]")
        }
        signature = segments[1]
        signedPart = path[segments[1].endIndex...]
        processingSegment = segments[2]
        sourceSegment = segments[3]
    }

    /// The processing, source and format the segments carry.
    ///
    /// - Throws: ``Problem`` for bad percent-encoding, a bad `expires(…)` step, a source that is
    ///   not base64url of an absolute http(s) URL, or an unknown extension.
    public func decoded() throws(Problem) -> Decoded {
        var processing: String?
        var expires: Date?
        if processingSegment != "-" {
            guard let text = processingSegment.removingPercentEncoding else {
                throw Problem(description: "the processing segment is not valid percent-encoding")
            }
            (processing, expires) = try URLExpiry.split(text)
        }
        var encodedSource = sourceSegment
        var format: OutputFormat?
        if let dot = encodedSource.lastIndex(of: ".") {
            let ext = encodedSource[encodedSource.index(after: dot)...]
            guard let named = OutputFormat(fileExtension: ext) else {
                let names = OutputFormat.allCases.map(\.rawValue)
                throw Problem(
                    description:
                        "unknown output format '.\(ext.prefix(16))': use \(names.dropLast().joined(separator: ", ")) or \(names.last ?? "")"
                )
            }
            format = named
            encodedSource = encodedSource[..<dot]
        }
        guard let bytes = Base64URL.decode(encodedSource), let text = String(data: bytes, encoding: .utf8) else {
            throw Problem(description: "the source segment is not base64url without padding")
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
            (scheme == "http" || scheme == "https") && url.host?.isEmpty == false
                || scheme == LocalRoot.scheme && (url.host ?? "").isEmpty && !url.path.isEmpty
        else {
            throw Problem(description: "the source '\(text.prefix(200))' is not an absolute http or https URL, or local:///PATH")
        }
        return Decoded(processing: processing, expires: expires, source: url, format: format)
    }

    /// The path for `source` with `processing` (`nil` for none) and `format` (`nil` to
    /// negotiate), signed by `signer`, or with `unsafe` when `signer` is `nil`; with `expires`
    /// (default `nil`: never), refused after that time (whole seconds, rounded down).
    public static func make(
        source: URL, processing: String?, format: OutputFormat?, signer: URLSigner?, expires: Date? = nil
    ) -> String {
        let steps = expires.map { URLExpiry.prepending(URLExpiry.step(for: $0), to: processing) } ?? processing
        let encodedProcessing =
            steps.map {
                $0.addingPercentEncoding(withAllowedCharacters: processingAllowed) ?? $0
            } ?? "-"
        let ext = format.map { ".\($0.rawValue)" } ?? ""
        let signed = "/\(encodedProcessing)/\(Base64URL.encode(Data(source.absoluteString.utf8)))\(ext)"
        return "/\(signer?.signature(forPath: signed) ?? "unsafe")\(signed)"
    }

    /// The first segment of an info URL: `/info/{signature}/-/{source}`.
    public static let infoPrefix = "/info"

    /// The info path for `source` (`/info/{signature}/-/{source}`), whose signature covers
    /// `/info/-/{source}`, so an image URL's signature does not open its source's metadata;
    /// `unsafe` when `signer` is `nil`.
    public static func makeInfo(source: URL, signer: URLSigner?) -> String {
        makeSourcePath(prefix: infoPrefix, source: source, signer: signer)
    }

    /// The first segment of a purge URL: `DELETE /purge/{signature}/-/{source}`.
    public static let purgePrefix = "/purge"

    /// The purge path for `source` (`/purge/{signature}/-/{source}`, for `DELETE`), whose
    /// signature covers `/purge/-/{source}`, so neither an image URL's nor an info URL's
    /// signature purges; `unsafe` when `signer` is `nil`.
    public static func makePurge(source: URL, signer: URLSigner?) -> String {
        makeSourcePath(prefix: purgePrefix, source: source, signer: signer)
    }

    /// `{prefix}/{signature}/-/{source}`, the signature covering `{prefix}/-/{source}`.
    private static func makeSourcePath(prefix: String, source: URL, signer: URLSigner?) -> String {
        let signed = "/-/\(Base64URL.encode(Data(source.absoluteString.utf8)))"
        return "\(prefix)/\(signer?.signature(forPath: prefix + signed) ?? "unsafe")\(signed)"
    }

    /// Characters left as they are in the processing segment: unreserved ones, and the grammar's
    /// parentheses and commas, which are safe in a path segment.
    private static let processingAllowed: CharacterSet = {
        var set = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        set.insert(charactersIn: "(),")
        return set
    }()
}
