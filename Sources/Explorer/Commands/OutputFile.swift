import CLibEdit
import Core
import Foundation

/// A file `-o`, `save` and `--download` write a body to, mode 0600 (an
/// answer may hold tokens). A new name is created exclusively: a name that
/// appeared meanwhile, or a symbolic link left where the file was to be
/// (a dangling one made its target), is not written through. With
/// `--force` an existing file is replaced whole or not at all: the body
/// goes to a file beside it, with the old one's mode and owner, renamed
/// over it once complete, so a write that fails (a full disk) leaves the old
/// file as it was (it used to be cut, then unlinked). A file with other
/// hard links, or in a folder where nothing can be made, is written where
/// it is, as curl writes it. Nothing this did not create is ever
/// removed: a device such as /dev/null is written as it is, never replaced
/// (as root, a failed write to /dev/full unlinked the device), and needs no
/// `--force`, as curl's `-o /dev/null` needs none.
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
        if isWrittenAsItIs(path, status) {
            // /dev/null, /dev/stdout, a named pipe: written to as they are, nothing created or removed; a
            // standard output redirected to a file (`-o /dev/stdout >> log`) is added to, not cut.
            let descriptor = Foundation.open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
            guard descriptor >= 0 else { return .failure(.problem(cannot(name))) }
            return .success(OutputFile(name: name, path: path, descriptor: descriptor, replacement: nil, created: false))
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG where replacing: break
        case S_IFREG: return .failure(.exists)
        case S_IFDIR: return .failure(.problem("\(name) is a directory"))
        default: return .failure(replacing ? .problem(symbolicLink(name)) : .exists)
        }
        // A hard link stays one: the file is written where it is (renamed over, the other name kept the old body).
        if status.st_nlink > 1 { return inPlace(name, path) }
        let folder = PathText.folder(of: path)
        let beside = folder.isEmpty ? "" : folder.hasSuffix("/") ? folder : folder + "/"
        // `.NAME.XXXXXX` within a file name's 255 bytes: a long name's was too long, and --force failed.
        var stem = Substring(PathText.name(of: path))
        while stem.utf8.count > 247 { stem = stem.dropLast() }
        var template = Array((beside + "." + stem + ".XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            // A folder that cannot be written, of a file that can: written where it is, as curl writes it.
            return [EACCES, EPERM].contains(errno) ? inPlace(name, path) : .failure(.problem(cannot(name)))
        }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        // The file replaced keeps its mode and, where this may give it, its owner.
        _ = fchmod(descriptor, status.st_mode & 0o7777)
        if geteuid() == 0 { _ = fchown(descriptor, status.st_uid, status.st_gid) }
        let replacement = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return .success(OutputFile(name: name, path: path, descriptor: descriptor, replacement: replacement, created: true))
    }

    /// Whether what stands at `path` is written to as it is, never created,
    /// replaced or removed: a device, a named pipe or a socket, or a link to
    /// one, and a process's own descriptors (`/dev/stdout` links to the
    /// standard output, which may be a file: `-o /dev/stdout > out.txt`).
    static func isWrittenAsItIs(_ path: String, _ standing: stat) -> Bool {
        if ["/dev/stdout", "/dev/stderr"].contains(path) || ["/dev/fd/", "/proc/self/fd/"].contains(where: path.hasPrefix) { return true }
        var target = standing
        if standing.st_mode & S_IFMT == S_IFLNK, stat(path, &target) != 0 { return false }
        return ![S_IFREG, S_IFDIR, S_IFLNK].contains(target.st_mode & S_IFMT)
    }

    /// `path` cut and written where it is: nothing is made beside it.
    private static func inPlace(_ name: String, _ path: String) -> Result<OutputFile, Opening> {
        let descriptor = Foundation.open(path, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(.problem(cannot(name))) }
        return .success(OutputFile(name: name, path: path, descriptor: descriptor, replacement: nil, created: false))
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
