/// Re-blessing (`explorer test --update`): what a step should expect now.
/// Parts that still match are kept as written, patterns and captures
/// included; the rest are written as a recording would write the live
/// output. Object keys and array elements are merged one by one, so one
/// changed value does not turn a whole body's patterns back into literals.
extension Expectation {
    public func updated(with observed: Observation, matcher: inout TranscriptMatcher, baseURL: String?) -> Expectation {
        let recorded = Expectation(recording: observed, baseURL: baseURL)
        var next = self
        next.refreshed = observed.refreshed
        if status != observed.status {
            next.status = observed.status
            next.reason = observed.reason
            next.version = observed.version
        }
        next.headers = headers.compactMap { header in
            let values = observed.headers.filter { $0.name.lowercased() == header.name.lowercased() }.map(\.value)
            guard let first = values.first else { return nil }
            guard !capturedHeaders.contains(header.name.lowercased()), !values.contains(where: { matcher.matchHeader(header.name, header.value, $0) })
            else { return header }
            // Its secrets as `{{secret:NAME}}`, as the screen hides them (a cookie's value, a token): written in clear.
            let pieces = Redactor.secretPieces(ofHeader: HTTPHeader(name: header.name, value: first)).map { piece -> PatternText.Piece in
                piece.secret.map { .pattern(TranscriptPattern(.secret(ExpectedValue.secretName($0)))) } ?? .literal(piece.text)
            }
            return (header.name, PatternText(pieces))
        }
        switch (body, observed.body) {
        case let (.json(value)?, .json(live)?): next.body = .json(value.updated(with: live, key: nil, matcher: &matcher, baseURL: baseURL))
        case let (.text(lines)?, .text(live)?): next.body = .text(Self.merge(lines, live, &matcher, baseURL))
        default: next.body = recorded.body
        }
        next.errors = Self.merge(errors, observed.errors, &matcher, baseURL)
        next.notes = Self.merge(notes, observed.notes, &matcher, baseURL)
        // Frames are kept as written while they all match; else, in order,
        // each is merged with the frame that came in its place, as a body is
        // (so an ack whose id is a capture keeps it and binds it), and those
        // that did not come are dropped. A step whose frames may come in any
        // order is written anew from what came.
        var trial = matcher
        let framesOnly = Expectation(frames: frames, framesInAnyOrder: framesInAnyOrder, frameTimeout: frameTimeout)
        let came = observed.frames.filter { !$0.isHeartbeat }
        if trial.match(framesOnly, Observation(frames: came, frameWait: observed.frameWait)).isEmpty {
            matcher = trial
        } else if !framesInAnyOrder {
            var merged: [ExpectedFrame] = []
            var seen: [FrameDirection: Int] = [:]
            for frame in frames {
                let n = seen[frame.direction, default: 0]
                seen[frame.direction] = n + 1
                let live = came.filter { $0.direction == frame.direction }
                guard n < live.count else { continue }
                merged.append(frame.updated(with: live[n], matcher: &matcher, baseURL: baseURL))
            }
            // Frames that came beyond those written (a hand-written step that listed fewer).
            for direction in [FrameDirection.sent, .received] {
                let written = frames.filter { $0.direction == direction }.count
                var captures = FrameCaptures(seeding: matcher.captures)
                merged += came.filter { $0.direction == direction }.dropFirst(written).map {
                    ExpectedFrame.recording($0, baseURL: baseURL, captures: &captures)
                }
            }
            next.frames = merged
        } else {
            var captures = FrameCaptures(seeding: matcher.captures)
            next.frames = came.map { ExpectedFrame.recording($0, baseURL: baseURL, captures: &captures) }
        }
        return next
    }

    private static func merge(_ lines: [PatternText], _ live: [String], _ matcher: inout TranscriptMatcher, _ baseURL: String?) -> [PatternText] {
        live.enumerated().map { n, text in
            if n < lines.count, matcher.matchText(lines[n], text) { return lines[n] }
            return .recording(text, baseURL: baseURL)
        }
    }
}

extension ExpectedValue {
    /// This value where it matches `actual`, merged member by member and
    /// element by element where it does not.
    func updated(with actual: JSONValue, key: String?, matcher: inout TranscriptMatcher, baseURL: String?) -> ExpectedValue {
        var trial = matcher
        if trial.match(self, actual).isEmpty {
            matcher = trial
            return self
        }
        switch (self, actual) {
        case let (.object(members, open), .object(live)):
            // The written order, so a diff shows what changed and nothing else (the live order moved every
            // key that still matched); a new key of a closed object lands after the one the server puts before it.
            let order = open ? members.map(\.key) : Self.mergedOrder(written: members.map(\.key), live: live.map(\.key))
            var merged: [Member] = []
            // A key written twice (`{"a": 1, "a": 2}`) is matched occurrence by occurrence, as the
            // matcher compares it: the first value was written for both, and the next replay failed.
            var liveByKey: [String: [JSONValue]] = [:]
            for member in live { liveByKey[member.key, default: []].append(member.value) }
            let writtenByKey = Dictionary(grouping: members, by: \.key)
            var seen: [String: Int] = [:]
            for key in order {
                let occurrence = seen[key, default: 0]
                seen[key] = occurrence + 1
                guard let values = liveByKey[key], occurrence < values.count else { continue }
                let value = values[occurrence]
                if let written = writtenByKey[key], occurrence < written.count, case let member = written[occurrence] {
                    merged.append(Member(key, member.value.updated(with: value, key: key, matcher: &matcher, baseURL: baseURL)))
                } else {
                    merged.append(Member(key, .recording(value, key: key, baseURL: baseURL)))
                }
            }
            return .object(merged, open: open)
        case let (.array(items, false), .array(live)):
            var merged: [ExpectedValue] = []
            for (n, value) in live.enumerated() {
                merged.append(n < items.count ? items[n].updated(with: value, key: key, matcher: &matcher, baseURL: baseURL)
                              : .recording(value, key: key, baseURL: baseURL))
            }
            return .array(merged, contains: false)
        case let (.array(items, true), .array(live)):
            // `[a, b, ...]`: each listed element keeps the live element it
            // matches; one that matches none is merged with the element in
            // its place (else the first one left), as an ordered array's is.
            var used = Set<Int>()
            var merged: [ExpectedValue?] = Array(repeating: nil, count: items.count)
            for (n, item) in items.enumerated() {
                for (i, value) in live.enumerated() where !used.contains(i) {
                    var trial = matcher
                    guard trial.match(item, value).isEmpty else { continue }
                    matcher = trial
                    used.insert(i)
                    merged[n] = item
                    break
                }
            }
            for (n, item) in items.enumerated() where merged[n] == nil {
                // The element most like it (the most literal members equal: `"name": "apple"`), else the one in its
                // place: by place alone, a reordered list gave apple's capture to cherry's id.
                let free = live.indices.filter { !used.contains($0) }
                let best = free.max { Self.likeness(item, live[$0]) < Self.likeness(item, live[$1]) }
                guard let i = best.flatMap({ Self.likeness(item, live[$0]) > 0 ? $0 : nil })
                        ?? (free.contains(n) ? n : free.first) else { continue }
                used.insert(i)
                merged[n] = item.updated(with: live[i], key: key, matcher: &matcher, baseURL: baseURL)
            }
            return .array(merged.compactMap { $0 }, contains: true)
        case let (.pattern(pattern), _) where pattern.capture != nil:
            // A capture stays one: the steps after it use what it binds. Of
            // the live value's kind now (an id that became a string).
            guard case let .pattern(kind) = ExpectedValue.kind(of: actual) else { fallthrough }
            let loosened = ExpectedValue.pattern(TranscriptPattern(kind.kind, capture: pattern.capture))
            var trial = matcher
            guard trial.match(loosened, actual).isEmpty else { fallthrough }
            matcher = trial
            return loosened
        default:
            // An id that differs from the recording's, of the same kind: the server hands out fresh ones
            // (a shared backend, not a fresh sandbox), so the new one written literally failed the next run.
            if case let .literal(old) = self, Self.isIdentifier(key), ExpectedValue.kind(of: old) == ExpectedValue.kind(of: actual) {
                return ExpectedValue.kind(of: actual)
            }
            // So is one where a reference stood (`"id": {{item_id}}`, another item in its place now): written
            // literally, the re-blessed file failed its next run on the next fresh id.
            if case let .pattern(written) = self, case .reference = written.kind, Self.isIdentifier(key),
               case .pattern = ExpectedValue.kind(of: actual) {
                return ExpectedValue.kind(of: actual)
            }
            return .recording(actual, key: key, baseURL: baseURL)
        }
    }

    /// The keys of an object rewritten: those written that the live object
    /// still has, in the written order; each new one after the key the live
    /// object has before it (first, when it comes first). A key written
    /// twice counts each time, as the matcher compares it.
    static func mergedOrder(written: [String], live: [String]) -> [String] {
        var liveCount: [String: Int] = [:]
        for key in live { liveCount[key, default: 0] += 1 }
        var placed: [String: Int] = [:]
        var order: [String] = []
        for key in written where placed[key, default: 0] < liveCount[key, default: 0] {
            placed[key, default: 0] += 1
            order.append(key)
        }
        var seen: [String: Int] = [:]
        for (index, key) in live.enumerated() {
            seen[key, default: 0] += 1
            guard seen[key]! > placed[key, default: 0] else { continue }
            let at = index == 0 ? 0 : order.lastIndex(of: live[index - 1]).map { $0 + 1 } ?? order.count
            order.insert(key, at: at)
        }
        return order
    }

    /// `id`, `task_id`, `userId`: a member that names a thing by its id.
    static func isIdentifier(_ key: String?) -> Bool {
        guard let key else { return false }
        return key == "id" || key == "ID" || key.lowercased().hasSuffix("_id") || (key.count > 2 && key.hasSuffix("Id"))
    }
}

extension ExpectedValue {
    /// How many of an object's literal members a live object has, equal.
    static func likeness(_ expected: ExpectedValue, _ live: JSONValue) -> Int {
        guard case let .object(members, _) = expected, case let .object(liveMembers) = live else { return 0 }
        return members.count { member in
            guard case let .literal(value) = member.value else { return false }
            return liveMembers.first { $0.key == member.key }?.value == value
        }
    }
}

extension ExpectedFrame {
    /// This frame where it matches `actual`; a JSON frame merged member by
    /// member where it does not; another frame written anew.
    func updated(with actual: ObservedFrame, matcher: inout TranscriptMatcher, baseURL: String?) -> ExpectedFrame {
        if case let .json(value) = content, case let .json(live) = actual.content {
            var merged = value.updated(with: live, key: nil, matcher: &matcher, baseURL: baseURL)
            if direction == .received, merged != value {
                // Ids written anew become captures or references, as a recording writes them.
                var captures = FrameCaptures(seeding: matcher.captures)
                merged = Self.withCaptures(merged, live: live, parent: nil, captures: &captures)
            }
            return ExpectedFrame(direction, .json(merged))
        }
        var trial = matcher
        if trial.match(Expectation(frames: [self]), Observation(frames: [actual])).isEmpty {
            matcher = trial
            return self
        }
        var captures = FrameCaptures(seeding: matcher.captures)
        return .recording(actual, baseURL: baseURL, captures: &captures)
    }
}

extension Expectation {
    /// This expectation (`rewritten` made more of: captures referenced),
    /// with `rewritten`'s parts that are as `original` wrote them taken
    /// from it: what still matched is kept as written, and only what
    /// changed reads as a recording writes it.
    public func keeping(unchangedIn rewritten: Expectation, from original: Expectation) -> Expectation {
        var kept = self
        if case let .json(new)? = rewritten.body, case let .json(old)? = original.body, case let .json(made)? = body {
            kept.body = .json(made.keeping(unchangedIn: new, from: old))
        }
        if rewritten.errors.count == original.errors.count, errors.count == rewritten.errors.count {
            kept.errors = errors.indices.map { rewritten.errors[$0] == original.errors[$0] ? original.errors[$0] : errors[$0] }
        }
        if rewritten.notes.count == original.notes.count, notes.count == rewritten.notes.count {
            kept.notes = notes.indices.map { rewritten.notes[$0] == original.notes[$0] ? original.notes[$0] : notes[$0] }
        }
        return kept
    }
}

extension ExpectedValue {
    /// `self` (made of `rewritten`), with each part of `rewritten` that is as `original` wrote it taken as written.
    func keeping(unchangedIn rewritten: ExpectedValue, from original: ExpectedValue) -> ExpectedValue {
        if rewritten == original { return original }
        switch (self, rewritten, original) {
        case let (.object(made, open), .object(new, _), .object(old, _)) where made.count == new.count:
            return .object(made.indices.map { index in
                let member = made[index]
                guard new[index].key == member.key, let before = old.first(where: { $0.key == member.key }) else { return member }
                return Member(member.key, member.value.keeping(unchangedIn: new[index].value, from: before.value))
            }, open: open)
        case let (.array(made, contains), .array(new, _), .array(old, _)) where made.count == new.count && new.count == old.count:
            return .array(made.indices.map { made[$0].keeping(unchangedIn: new[$0], from: old[$0]) }, contains: contains)
        default:
            return self
        }
    }
}
