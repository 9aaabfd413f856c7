/// `explorer test --jobs N`: replays up to `jobs` transcripts at once. They
/// are independent: each gets its own interpreter and, for `base-url:
/// sandbox`, its own fresh sandbox (`Replayer.run`). Results are handed to
/// `report` in input order, whatever order they finish in, so the output
/// reads the same for any N.
enum ParallelReplay {
    static func run(_ files: [String], jobs: Int, replayer: Replayer,
                    report: @escaping @Sendable (TranscriptRun) -> Void) async -> [TranscriptRun] {
        var results = [TranscriptRun?](repeating: nil, count: files.count)
        var reported = 0
        await withTaskGroup(of: (Int, TranscriptRun).self) { group in
            var next = 0
            while next < min(max(jobs, 1), files.count) {
                let index = next
                group.addTask { (index, await replayer.run(files[index])) }
                next += 1
            }
            while let (index, run) = await group.next() {
                results[index] = run
                // Report every result whose predecessors have all been reported.
                while reported < files.count, let ready = results[reported] {
                    report(ready)
                    reported += 1
                }
                if next < files.count {
                    let index = next
                    group.addTask { (index, await replayer.run(files[index])) }
                    next += 1
                }
            }
        }
        return results.compactMap { $0 }
    }
}
