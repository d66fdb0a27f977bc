// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import ArgumentParser
import Foundation
import KingfisherServer

/// `kf url`: the path `kf serve` answers for a source, processing and format, signed or unsafe.
struct URLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "url",
        abstract:
            "Print the kf serve path for a source URL: /SIGNATURE/PROCESSING/SOURCE[.EXT], with --info /info/SIGNATURE/-/SOURCE, or with --purge /purge/SIGNATURE/-/SOURCE (for DELETE)."
    )

    @Argument(help: "The source URL (http or https).")
    var source: String
    @Option(help: "The processing, in `kf process --processor` form (default: none).")
    var processor: String?
    @Option(help: "The output format: jpg, png, webp, gif, avif or jxl (default: negotiated).")
    var format: String?
    @Option(help: "The signing key (or set KF_SERVE_KEY); without one the path says `unsafe`.")
    var key: String?
    @Option(help: "Seconds from now after which kf serve refuses the URL with 403 (default: never).")
    var expires: Int?
    @Option(help: "The time, in seconds since 1970, after which kf serve refuses the URL (in place of --expires).")
    var expiresAt: Int64?
    @Flag(help: "The path of the source's information (JSON) instead of an image.")
    var info = false
    @Flag(help: "The path that purges the source, for DELETE: its original and every result made from it, on every node.")
    var purge = false

    func run() throws {
        guard let url = URL(string: source), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            url.host?.isEmpty == false
        else {
            exitWithError("\(source) is not an http or https URL", status: 64)
        }
        var output: OutputFormat?
        if let format {
            guard let named = OutputFormat(fileExtension: format) else {
                exitWithError(
                    "unknown format '\(format)': use \(OutputFormat.allCases.map(\.rawValue).joined(separator: ", "))", status: 64)
            }
            output = named
        }
        if expires != nil && expiresAt != nil {
            exitWithError("give --expires or --expires-at, not both", status: 64)
        }
        if let expires, expires < 0 {
            exitWithError("--expires \(expires) is negative: give seconds from now", status: 64)
        }
        let expiry =
            expires.map { Date(timeIntervalSinceNow: TimeInterval($0)) }
            ?? expiresAt.map { Date(timeIntervalSince1970: TimeInterval($0)) }
        // An empty key is no key, as kf serve reads it.
        let signingKey = (key ?? ProcessInfo.processInfo.environment["KF_SERVE_KEY"]).flatMap { $0.isEmpty ? nil : $0 }
        if info || purge {
            let flag = info ? "--info" : "--purge"
            guard !(info && purge) else { exitWithError("give --info or --purge, not both", status: 64) }
            guard processor == nil, format == nil, expires == nil, expiresAt == nil else {
                exitWithError("\(flag) takes no --processor, --format or expiry", status: 64)
            }
            let signer = signingKey.map(URLSigner.init(key:))
            print(info ? ImageURLPath.makeInfo(source: url, signer: signer) : ImageURLPath.makePurge(source: url, signer: signer))
            return
        }
        print(
            ImageURLPath.make(
                source: url, processing: processor, format: output,
                signer: signingKey.map(URLSigner.init(key:)), expires: expiry))
    }
}
