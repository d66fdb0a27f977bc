// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// HTTP dates (RFC 9110 §5.6.7): read in all three historic forms, written as IMF-fixdate.
enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The date `text` names: `Sun, 06 Nov 1994 08:49:37 GMT`, `Sunday, 06-Nov-94 08:49:37 GMT`
    /// or `Sun Nov  6 08:49:37 1994`; `nil` for anything else.
    static func parse(_ text: String) -> Date? {
        // Tokens split on spaces, commas and dashes: the three forms differ only in order.
        let tokens = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "-" }).map { $0.lowercased() }
        guard tokens.count >= 5 else { return nil }
        var day: Int?
        var month: Int?
        var year: Int?
        var clock: [Int]?
        for token in tokens.dropFirst() {
            if token.contains(":") {
                let parts = token.split(separator: ":").compactMap { Int($0) }
                guard parts.count == 3 else { return nil }
                clock = parts
            } else if let index = months.firstIndex(of: String(token.prefix(3))), token.count == 3 {
                month = index
            } else if let number = Int(token) {
                if day == nil, token.count <= 2, year == nil || month != nil { day = number } else { year = number }
            }
        }
        guard let day, let month, var year, let clock, (1...31).contains(day), clock[0] < 24, clock[1] < 60, clock[2] < 61 else {
            return nil
        }
        // RFC 850's two-digit years: within 50 years from now, as RFC 9110 says (1970-based here).
        if year < 100 { year += year < 70 ? 2000 : 1900 }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(clock[0])
        parts.tm_min = Int32(clock[1])
        parts.tm_sec = Int32(clock[2])
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }

    /// `date` as IMF-fixdate, for example `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func format(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let month = months[Int(parts.tm_mon)].capitalized
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekdays[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(month) \(Int(parts.tm_year) + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
