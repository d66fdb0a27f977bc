// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Certificates for the TLS tests, made with the `openssl` command into a directory: a test CA,
/// and for 127.0.0.1 a server certificate it signed, an expired one it signed (valid in 2019), a
/// self-signed one, plus a client certificate it signed. EC P-256 keys keep making them fast.
package struct TestCertificates: Sendable {
    /// A file's path in the directory.
    package let directory: URL

    package func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    package var caCertificate: String { path("ca.pem") }
    /// Signed by the CA, for 127.0.0.1; key ``serverKey``.
    package var serverCertificate: String { path("server.pem") }
    package var serverKey: String { path("server.key") }
    /// Signed by the CA with ``serverKey``, valid from 2019-01-01 to 2020-01-01.
    package var expiredCertificate: String { path("expired.pem") }
    /// Self-signed, for 127.0.0.1; key ``selfSignedKey``.
    package var selfSignedCertificate: String { path("self-signed.pem") }
    package var selfSignedKey: String { path("self-signed.key") }
    /// Signed by the CA, for a client; key ``clientKey``.
    package var clientCertificate: String { path("client.pem") }
    package var clientKey: String { path("client.key") }

    package struct OpenSSLFailed: Error, CustomStringConvertible {
        package var description: String
    }

    /// Makes every certificate in `directory`.
    package static func make(in directory: URL) async throws -> TestCertificates {
        let certificates = TestCertificates(directory: directory)
        try await certificates.makeAll()
        return certificates
    }

    private func makeAll() async throws {
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try Data("subjectAltName=IP:127.0.0.1\n".utf8).write(to: directory.appendingPathComponent("server.ext"))
        try await openssl(
            ["req", "-x509"] + ec + [
                "-keyout", path("ca.key"), "-out", caCertificate, "-days", "2",
                "-subj", "/CN=Kingfisher Test CA",
            ])
        try await openssl(
            ["req", "-x509"] + ec + [
                "-keyout", selfSignedKey, "-out", selfSignedCertificate, "-days", "2",
                "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
            ])
        try await openssl(["req", "-new"] + ec + ["-keyout", serverKey, "-out", path("server.csr"), "-subj", "/CN=127.0.0.1"])
        try await openssl([
            "x509", "-req", "-in", path("server.csr"), "-CA", caCertificate, "-CAkey", path("ca.key"),
            "-set_serial", "2", "-days", "2", "-extfile", path("server.ext"), "-out", serverCertificate,
        ])
        try await openssl(
            ["req", "-new"] + ec + ["-keyout", clientKey, "-out", path("client.csr"), "-subj", "/CN=Kingfisher Test Client"])
        try await openssl([
            "x509", "-req", "-in", path("client.csr"), "-CA", caCertificate, "-CAkey", path("ca.key"),
            "-set_serial", "3", "-days", "2", "-out", clientCertificate,
        ])
        // OpenSSL 3.0's `x509` cannot back-date; `ca` takes explicit dates but wants a database.
        try Data(
            "[ca]\ndefault_ca = test\n[test]\ndatabase = \(path("index.txt"))\nnew_certs_dir = \(directory.path)\nserial = \(path("serial"))\ndefault_md = sha256\npolicy = any\n[any]\ncommonName = supplied\n"
                .utf8
        )
        .write(to: directory.appendingPathComponent("ca.cnf"))
        try Data().write(to: directory.appendingPathComponent("index.txt"))
        try Data("10\n".utf8).write(to: directory.appendingPathComponent("serial"))
        try await openssl([
            "ca", "-config", path("ca.cnf"), "-batch", "-notext", "-cert", caCertificate, "-keyfile", path("ca.key"),
            "-in", path("server.csr"), "-out", expiredCertificate, "-extfile", path("server.ext"),
            "-startdate", "20190101000000Z", "-enddate", "20200101000000Z",
        ])
    }

    private func openssl(_ arguments: [String]) async throws {
        let run = try await ProcessRun.run("/usr/bin/openssl", arguments)
        guard run.status == 0 else { throw OpenSSLFailed(description: "openssl \(arguments.joined(separator: " ")): \(run.stderr)") }
    }

    /// The curl / HPKP pin of `certificate`'s public key, `sha256//` and the base64 SHA-256 of its
    /// DER SubjectPublicKeyInfo, computed by openssl (curl's documented recipe), independently of
    /// the transport's own computation.
    package func pin(of certificate: String) async throws -> String {
        try await Self.pin(from: "openssl x509 -in '\(certificate)' -pubkey -noout")
    }

    /// The pin of the certificate the TLS server on 127.0.0.1:`port` shows, fetched by
    /// `openssl s_client` as curl's documentation does it.
    package static func pin(ofServerOnPort port: Int) async throws -> String {
        try await pin(from: "openssl s_client -connect 127.0.0.1:\(port) </dev/null 2>/dev/null | openssl x509 -pubkey -noout")
    }

    /// The pin of the PEM public key `command` prints.
    private static func pin(from command: String) async throws -> String {
        let run = try await ProcessRun.run(
            "/bin/sh", ["-c", "\(command) | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64"])
        guard run.status == 0 else { throw OpenSSLFailed(description: run.stderr) }
        return "sha256//" + run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Runs `body` with ``TestCertificates`` made in a fresh temporary directory, removed afterwards.
package func withTestCertificates<T>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: (TestCertificates) async throws -> T
) async throws -> T {
    try await withTemporaryDirectory { directory in try await body(try await TestCertificates.make(in: directory)) }
}
