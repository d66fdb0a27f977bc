// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CLibFuzzer
import Foundation
import KingfisherFuzzTargets

/// `kf-fuzz`: built by `scripts/fuzz.sh` with `-sanitize=fuzzer,address -DFUZZING`, it runs
/// libFuzzer on the target named by `KF_FUZZ_TARGET` (libFuzzer's own arguments follow).
/// Built without `FUZZING` it replays files: `kf-fuzz TARGET FILE...`.
@main
struct FuzzEntry {
    static func main() {
        #if FUZZING
            let name = ProcessInfo.processInfo.environment["KF_FUZZ_TARGET"] ?? ""
            guard let target = FuzzTarget(rawValue: name) else { usage("set KF_FUZZ_TARGET to one of") }
            FuzzedTarget.current = target
            var argc = CommandLine.argc
            var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
            exit(
                LLVMFuzzerRunDriver(&argc, &argv) { bytes, count in
                    FuzzedTarget.current.run(bytes.map { Data(bytes: $0, count: count) } ?? Data())
                    return 0
                })
        #else
            let arguments = CommandLine.arguments.dropFirst()
            guard let name = arguments.first, let target = FuzzTarget(rawValue: name) else {
                usage("usage: kf-fuzz TARGET FILE..., TARGET one of")
            }
            for path in arguments.dropFirst() {
                guard let data = FileManager.default.contents(atPath: path) else {
                    FileHandle.standardError.write(Data("kf-fuzz: cannot read \(path)\n".utf8))
                    exit(66)
                }
                target.run(data)
                print("\(path): ok")
            }
        #endif
    }

    private static func usage(_ message: String) -> Never {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        FileHandle.standardError.write(Data("kf-fuzz: \(message): \(names)\n".utf8))
        exit(64)
    }
}

#if FUZZING
    /// The target libFuzzer's C callback runs: set once, before fuzzing starts.
    enum FuzzedTarget {
        nonisolated(unsafe) static var current = FuzzTarget.decode
    }
#endif
