// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import NIOSSL

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Why a server's certificate chain was refused, read from the server's own certificate.
/// BoringSSL reports every failed chain as one `CERTIFICATE_VERIFY_FAILED` and NIOSSL does not
/// hand over the verification result, so the transport looks at the certificate again (see
/// `CertificateProbe`) and names the likeliest cause, in the order OpenSSL's `verify` would
/// not: a date problem first, as it is the one a server operator fixes first.
public enum CertificateProblem: Sendable, Equatable {
    /// Its validity ended at this date.
    case expired(Date)
    /// Its validity starts at this date.
    case notYetValid(Date)
    /// It is signed by its own key and no trusted root.
    case selfSigned
    /// Its issuer (named) is no trusted authority, or the server left out an intermediate.
    case unknownIssuer(String)

    /// The problem of `certificate` at `now`; `nil` when none shows on it (the cause is then
    /// further up the chain).
    init?(of certificate: NIOSSLCertificate, at now: Date = Date()) {
        let notAfter = Date(timeIntervalSince1970: TimeInterval(certificate.notValidAfter))
        let notBefore = Date(timeIntervalSince1970: TimeInterval(certificate.notValidBefore))
        if notAfter < now {
            self = .expired(notAfter)
        } else if notBefore > now {
            self = .notYetValid(notBefore)
        } else if certificate.issuerName == certificate.subjectName {
            self = .selfSigned
        } else {
            let issuer = certificate.issuerName
            let name = issuer.first { $0.type == .commonName }?.value ?? issuer.map(\.value).joined(separator: ", ")
            self = .unknownIssuer(name)
        }
    }

    /// The `URLError` code URLSession gives for the same problem.
    public var code: URLError.Code {
        switch self {
        case .expired: .serverCertificateHasBadDate
        case .notYetValid: .serverCertificateNotYetValid
        case .selfSigned: .serverCertificateUntrusted
        case .unknownIssuer: .serverCertificateHasUnknownRoot
        }
    }

    /// The cause in words, to follow "failed: ".
    public var reason: String {
        switch self {
        case .expired(let date): "its certificate expired on \(Self.day(date))"
        case .notYetValid(let date): "its certificate is not valid before \(Self.day(date))"
        case .selfSigned: "its certificate is not trusted: it is self-signed"
        case .unknownIssuer(let issuer): "its certificate is not trusted: its issuer '\(issuer)' is not a trusted authority"
        }
    }

    /// `date` as `yyyy-MM-dd` in UTC.
    private static func day(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: date)
    }
}
