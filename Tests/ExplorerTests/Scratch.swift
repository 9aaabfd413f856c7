import Foundation

/// One private folder for the files tests write (specs, profiles,
/// catalogs), removed when the run ends, so a run leaves nothing behind
/// in the temporary directory.
enum Scratch {
    private static let root: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("explorer-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // Swift Testing has no hook for the end of a run; the process's exit is one.
        atexit { try? FileManager.default.removeItem(at: Scratch.root) }
        return folder
    }()

    /// A new empty folder of its own, its name starting with `name`.
    static func folder(_ name: String) throws -> URL {
        let folder = root.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A path for a new file, its name starting with `name`.
    static func file(_ name: String, extension ext: String) -> URL {
        _ = root
        return root.appendingPathComponent("\(name)-\(UUID().uuidString).\(ext)")
    }
}
