// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// The command line of `gtk-gallery`.
struct GalleryOptions {
    var urls: [URL] = []
    var columns = 4
    var cell = 160
    var windowSize: (width: Int, height: Int)?
    var screenshot: String?
    var screenshotAfter: Double?
    var fade = 0.25
    var autoscroll: Double?
    var memoryCacheMB: Int?

    static let usage = """
        usage: gtk-gallery [URL...] [--file PATH] [--columns N] [--cell PX] [--size WxH]
                           [--fade SECONDS] [--screenshot PATH [--screenshot-after SECONDS]]
          URL...               images to show, row-major from the top left
          --file PATH          more URLs, one per line
          --columns N          columns of the grid (default 4)
          --cell PX            the side of each square cell (default 160); images are fitted inside
          --size WxH           the window's size (default: the columns, three rows)
          --fade SECONDS       the cross-fade of a loaded image (default 0.25; 0 for none)
          --screenshot PATH    once every visible image is loaded and shown, write the window as a PNG and exit
          --screenshot-after S write it S seconds after start instead
          --autoscroll PX      scroll to the end at PX pixels a second, then print a JSON summary
                               (peak RSS, the memory cache's limit, images shown, requests
                               cancelled) and exit
          --memory-cache-mb N  the memory cache's limit (default: the library's)
        """

    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    init(arguments: [String]) throws {
        var index = 0
        func value(_ flag: String) throws -> String {
            index += 1
            guard index < arguments.count else { throw UsageError(description: "\(flag) needs a value") }
            return arguments[index]
        }
        func number<T: LosslessStringConvertible & Comparable>(_ flag: String, minimum: T) throws -> T {
            let text = try value(flag)
            guard let number = T(text), number >= minimum else {
                throw UsageError(description: "\(flag) '\(text)' is not a number of at least \(minimum)")
            }
            return number
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--file":
                let path = try value(argument)
                let text: String
                do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
                    throw UsageError(description: "cannot read the URL file \(path): \(error.localizedDescription)")
                }
                for line in text.split(whereSeparator: \.isNewline) where !line.trimmingCharacters(in: .whitespaces).isEmpty {
                    urls.append(try Self.url(String(line.trimmingCharacters(in: .whitespaces))))
                }
            case "--columns": columns = try number(argument, minimum: 1)
            case "--cell": cell = try number(argument, minimum: 1)
            case "--fade": fade = try number(argument, minimum: 0.0)
            case "--screenshot": screenshot = try value(argument)
            case "--autoscroll": autoscroll = try number(argument, minimum: 1.0)
            case "--memory-cache-mb": memoryCacheMB = try number(argument, minimum: 1)
            case "--screenshot-after": screenshotAfter = try number(argument, minimum: 0.0)
            case "--size":
                let text = try value(argument)
                let parts = text.split(separator: "x").compactMap { Int($0) }
                guard parts.count == 2, parts.allSatisfy({ $0 > 0 }) else {
                    throw UsageError(description: "--size '\(text)' is not WIDTHxHEIGHT")
                }
                windowSize = (parts[0], parts[1])
            case "-h", "--help":
                throw UsageError(description: Self.usage)
            default:
                guard !argument.hasPrefix("--") else { throw UsageError(description: "unknown option \(argument)") }
                urls.append(try Self.url(argument))
            }
            index += 1
        }
        if screenshotAfter != nil && screenshot == nil {
            throw UsageError(description: "--screenshot-after needs --screenshot PATH")
        }
    }

    private static func url(_ text: String) throws -> URL {
        guard let url = URL(string: text), url.scheme != nil else { throw UsageError(description: "'\(text)' is not a URL") }
        return url
    }
}
