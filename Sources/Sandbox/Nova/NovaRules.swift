/// Nova's field rules; each returns the problem to show, or nil when fine.
enum NovaRules {
    static func email(_ email: String) -> String? {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.count <= 254, parts.count == 2, !parts[0].isEmpty, !email.contains(where: \.isWhitespace) else {
            return "must be an email address"
        }
        let domain = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        guard domain.count >= 2, domain.allSatisfy({ !$0.isEmpty }) else { return "must be an email address" }
        return nil
    }

    /// `me` and `search` would be shadowed by GET /users/me and /users/search.
    static let reservedUsernames: Set<String> = ["me", "search"]

    /// Instagram's rule: 3 to 30 letters, digits, `.` and `_`.
    static func username(_ name: String) -> String? {
        guard (3...30).contains(name.count),
              name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "_") }) else {
            return "3 to 30 letters, digits, '.' or '_'"
        }
        if reservedUsernames.contains(name.lowercased()) { return "'\(name)' is reserved" }
        return nil
    }

    /// At least 8 characters with letters and digits; at most 72 bytes,
    /// because bcrypt ignores everything after the 72nd.
    static func password(_ password: String) -> String? {
        guard password.count >= 8, password.contains(where: \.isLetter), password.contains(where: \.isNumber) else {
            return "at least 8 characters, with letters and digits"
        }
        if password.utf8.count > 72 { return "at most 72 bytes" }
        return nil
    }

    static let displayNameMax = 50
    static let bioMax = 150
    static let captionMax = 2200
    static let commentMax = 2200
}
