/// Optimal string alignment distance: insertions, deletions, substitutions
/// and adjacent transpositions ("lgoin" is one edit from "login").
///
/// Words whose lengths differ by more than `exactWithin` get that difference,
/// the least their distance can be: far past any typo a suggestion takes, and
/// a 1 MB word pasted where a command goes took a minute to compare in full.
public func editDistance(_ a: String, _ b: String) -> Int {
    let exactWithin = 16
    let apart = abs(a.count - b.count)
    guard apart <= exactWithin else { return apart }
    let a = Array(a), b = Array(b)
    guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
    var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { d[i][0] = i }
    for j in 0...b.count { d[0][j] = j }
    for i in 1...a.count {
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
            }
        }
    }
    return d[a.count][b.count]
}

/// The candidate nearest `word` by `editDistance` (the first of equals),
/// when `near` takes its distance as a typo's (thresholds differ: a short
/// command, a long path); nil for none. `ignoringCase`: compared lower-cased,
/// returned as given. Each distance is worked out once.
public func nearest(to word: String, in candidates: some Sequence<String>, ignoringCase: Bool = false,
                    near: (_ distance: Int, _ candidate: String) -> Bool) -> String? {
    let typed = ignoringCase ? word.lowercased() : word
    var best: (candidate: String, distance: Int)?
    for candidate in candidates {
        let distance = editDistance(typed, ignoringCase ? candidate.lowercased() : candidate)
        if best == nil || distance < best!.distance { best = (candidate, distance) }
    }
    guard let best, near(best.distance, best.candidate) else { return nil }
    return best.candidate
}
