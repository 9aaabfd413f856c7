import CLibEdit
import Core
import Foundation

/// A file `-o`, `save` and `--download` write a body to, mode 0600 (an
/// answer may hold tokens). A new name is created exclusively: a name that
/// appeared meanwhile, or a symbolic link left where the file was to be
/// (a dangling one made its target), is not written through. With
/// `--force` an existing file is replaced whole or not at all: the body
/// goes to a file beside it, renamed over it once complete, so a write that
/// fails (a full disk) leaves the old file as it was; it used to be cut,
/// then unlinked. Nothing this did not create is ever removed: a device
/// such as /dev/null is written as it is, never replaced (as root, a failed
/// write to /dev/full unlinked the device), and needs no `--force`, as
/// curl's `-o /dev/null` needs none.
struct OutputFile {
    /// The name as typed, for messages.
    let name: String
    /// Where it goes on disk.
    let path: String
    /// Written to: the file itself, or the one beside it that replaces it.
    let descriptor: Int32
    /// The file beside the one `--force` replaces, renamed over it by `keep`.
    private let replacement: String?
    /// Made here: removed again by `discard`.
    private let created: Bool
    /// Where what is made here is noted for removal should a signal end the
    /// process while it is written (a script's download stopped by Ctrl-C
    /// or SIGTERM left its part); -1 when nothing was made.
    private let cleanupSlot: Int32

    private init(name: String, path: String, descriptor: Int32, replacement: String?, created: Bool) {
        self.name = name
        self.path = path
        self.descriptor = descriptor
        self.replacement = replacement
        self.created = created
        cleanupSlot = created ? ex_cleanup_add(replacement ?? path) : -1
    }

    enum Opening: Error {
        /// The name is taken (EEXIST): the caller says how to replace it.
        case exists
        case problem(String)
    }

    /// Opens `name` (placed at `path`) for writing: a new file, or with
    /// `replacing` one beside the regular file that stands there.
    static func open(_ name: String, at path: String, replacing: Bool) -> Result<OutputFile, Opening> {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            let descriptor = Foundation.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { return .failure(errno == EEXIST ? .exists : .problem(cannot(name))) }
            return .success(OutputFile(name: name, path: path, descriptor: descriptor, replacement: nil, created: true))
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG where replacing: break
        case S_IFREG: return .failure(.exists)
        case S_IFDIR: return .failure(.problem("\(name) is a directory"))
        case S_IFLNK: return .failure(replacing ? .problem(symbolicLink(name)) : .exists)
        default:
            // /dev/null, /dev/stdout, a named pipe: written to as they are, nothing created or removed.
            let descriptor = Foundation.open(path, O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return .failure(.problem(cannot(name))) }
            return .success(OutputFile(name: name, path: path, descriptor: descriptor, replacement: nil, created: false))
        }
        let folder = PathText.folder(of: path)
        let beside = folder.isEmpty ? "" : folder.hasSuffix("/") ? folder : folder + "/"
        var template = Array((beside + "." + PathText.name(of: path) + ".XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { return .failure(.problem(cannot(name))) }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        let replacement = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return .success(OutputFile(name: name, path: path, descriptor: descriptor, replacement: replacement, created: true))
    }

    /// Closes the file and, when it replaces one, renames it over it. A
    /// problem (the disk filled as the last bytes were flushed) is said, and
    /// what was made here removed.
    func keep() -> String? {
        let synced = replacement == nil || fsync(descriptor) == 0
        let failure = synced ? nil : errno
        let closed = close(descriptor) == 0 || errno == EINTR
        let problem = failure ?? (closed ? nil : errno)
        if let problem {
            removeMade()
            return "cannot write \(name): \(String(cString: strerror(problem)))"
        }
        if let replacement, rename(replacement, path) != 0 {
            let problem = errno
            removeMade()
            return "cannot write \(name): \(String(cString: strerror(problem)))"
        }
        ex_cleanup_remove(cleanupSlot)
        return nil
    }

    /// Closes the file and removes what was made here: a new file, or the
    /// one that was to replace the old, which stays as it was.
    func discard() {
        close(descriptor)
        removeMade()
    }

    /// What a failed or stopped write leaves, said after why.
    func leftBehind(partial: Bool = false) -> String {
        if replacement != nil { return "\(name) was left as it was" }
        if created { return partial ? "the partial file was removed" : "nothing was kept" }
        return "part of it may have gone to \(name)"
    }

    private func removeMade() {
        guard created else { return }
        unlink(replacement ?? path)
        ex_cleanup_remove(cleanupSlot)
    }

    static func symbolicLink(_ name: String) -> String {
        "\(name) is a symbolic link; give the path of the file it points to"
    }

    private static func cannot(_ name: String) -> String {
        "cannot write \(name): \(String(cString: strerror(errno)))"
    }
}
