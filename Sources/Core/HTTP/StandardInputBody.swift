import Foundation
#if canImport(Glibc)
import Glibc
#endif
import NIOConcurrencyHelpers

/// Standard input as a request's body: `explorer post URL < task.json`
/// and `… | explorer put URL`, as HTTPie and xh send it (the bytes were
/// dropped without a word). Read once, before the line runs, and named by
/// the item `@-` (curl's name for it), which the `explorer METHOD URL` form
/// adds for a body that is not text of 1 MiB or less (such text goes as `--raw`).
public enum StandardInputBody {
    private static let taken = NIOLockedValueBox<[UInt8]?>(nil)

    /// The bytes kept for `@-`; nil when none were.
    public static var bytes: [UInt8]? { taken.withLockedValue { $0 } }

    /// Reads standard input whole when it is a file or a pipe (not a
    /// terminal, nor `/dev/null`), and keeps it for `@-`; its bytes, nil
    /// when it held nothing.
    public static func take(from descriptor: Int32 = STDIN_FILENO) -> [UInt8]? {
        guard isatty(descriptor) == 0 else { return nil }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        let kind = status.st_mode & S_IFMT
        guard kind == S_IFREG || kind == S_IFIFO else { return nil }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        guard !bytes.isEmpty else { return nil }
        taken.withLockedValue { $0 = bytes }
        return bytes
    }

    /// What `@-` reads: the kept bytes, or why there are none.
    static func read() throws -> [UInt8] {
        guard let bytes else {
            throw RequestBuilder.BuildError("'@-' is standard input, which only `explorer post|put|patch|delete URL < FILE` sends")
        }
        return bytes
    }
}
