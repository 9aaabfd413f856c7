import Core
import Foundation
import Hummingbird
import NIOCore
import HummingbirdBcrypt

/// What every route needs: the store, the token signer, the configuration,
/// the fault switches in force, the open WebSockets, and counters tests read
/// (how many refresh calls the server answered).
final class SandboxState: Sendable {
    let store: SandboxStore
    let signer: TokenSigner
    let counters = Counters()
    let errorStyle: ErrorStyle
    /// Fault switches and the access-token lifetime, changeable at run time.
    let faults: Faults
    /// Every open TCP connection, for what Hummingbird's API cannot do (answer
    /// a refused WebSocket upgrade 401, drop a connection).
    let connections = ConnectionRegistry()
    /// Open WebSockets per user, so a message reaches every device.
    let sockets = SocketRegistry()
    private let startConfiguration: SandboxConfiguration
    /// Users whose existence a token check has confirmed. No backend deletes
    /// users, so this spares every authenticated request a query.
    private let knownUsers = KnownUsers()

    final class KnownUsers: @unchecked Sendable {
        private let lock = NSLock()
        private var ids: Set<String> = []
        func contains(_ id: String) -> Bool { lock.withLock { ids.contains(id) } }
        func insert(_ id: String) { lock.withLock { _ = ids.insert(id) } }
    }

    /// The token generation (see `expireAccessTokens`), kept in memory because
    /// every authenticated request reads it; the database keeps it for restarts.
    private let tokenGeneration: TokenGeneration

    final class TokenGeneration: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Int
        init(_ value: Int) { self.value = value }
        var current: Int { lock.withLock { value } }
        func increment() -> Int { lock.withLock { value += 1; return value } }
    }

    init(store: SandboxStore, signer: TokenSigner, configuration: SandboxConfiguration, errorStyle: ErrorStyle, tokenGeneration: Int) {
        self.tokenGeneration = TokenGeneration(tokenGeneration)
        self.store = store
        self.signer = signer
        self.startConfiguration = configuration
        self.errorStyle = errorStyle
        self.faults = Faults(configuration.faults, accessTokenLifetime: configuration.accessTokenLifetime)
    }

    /// The configuration in force: as started, with the access-token lifetime
    /// and fault switches of now (the admin endpoint changes them).
    var configuration: SandboxConfiguration {
        var configuration = startConfiguration
        configuration.accessTokenLifetime = faults.accessTokenLifetime
        configuration.faults = faults.current
        return configuration
    }

    final class Counters: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [String: Int] = [:]
        func increment(_ name: String) { lock.withLock { values[name, default: 0] += 1 } }
        func value(_ name: String) -> Int { lock.withLock { values[name] ?? 0 } }
        var all: [String: Int] { lock.withLock { values } }
    }

    var now: Double { startConfiguration.clock() }

    func log(_ line: String) { startConfiguration.log?(line) }

    func generation() async throws -> Int {
        tokenGeneration.current
    }

    /// Fault switch: every access token issued so far answers 401 TOKEN_EXPIRED.
    func expireAccessTokens() async throws {
        try store.setMeta("token_generation", String(tokenGeneration.increment()))
    }

    /// Issues an access token and a (recorded) refresh token for a user.
    func issueTokens(userID: String) async throws -> (access: String, refresh: String) {
        let generation = try await generation()
        let access = signer.sign(.init(subject: userID, kind: "access", expires: now + faults.accessTokenLifetime,
                                       generation: generation, id: UUID().uuidString))
        let refreshID = UUID().uuidString
        let refresh = signer.sign(.init(subject: userID, kind: "refresh", expires: now + startConfiguration.refreshTokenLifetime,
                                        generation: 0, id: refreshID))
        try store.query("INSERT INTO refresh_tokens (jti, user_id) VALUES (?, ?)", [.text(refreshID), .text(userID)])
        return (access, refresh)
    }

    /// The user id of a request's valid bearer token, or a 401 in the envelope.
    func authenticate(_ request: Request) async throws -> String {
        guard let header = request.headers[.authorization] else {
            throw APIFailure.unauthorized("missing Authorization header; log in and send 'Authorization: Bearer <access_token>'")
        }
        guard let token = Self.bearerToken(header) else {
            throw APIFailure.unauthorized("Authorization must be 'Bearer <access_token>'", code: "INVALID_TOKEN")
        }
        return try await authenticate(token: token)
    }

    /// The token of `Bearer <token>` (the scheme in any case, HTTP's spaces
    /// or tabs around the token), over the bytes: Foundation's trimming
    /// showed in profiles of every authenticated request.
    static func bearerToken(_ header: String) -> String? {
        let bytes = Array(header.utf8)
        let scheme = Array("bearer ".utf8)
        guard bytes.count >= scheme.count,
              zip(bytes, scheme).allSatisfy({ $1 == UInt8(ascii: " ") ? $0 == $1 : $0 | 0x20 == $1 }) else { return nil }
        func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var token = bytes[scheme.count...]
        while let first = token.first, isSpace(first) { token.removeFirst() }
        while let last = token.last, isSpace(last) { token.removeLast() }
        return String(decoding: token, as: UTF8.self)
    }

    /// The user id of a valid access token (from a header or, for WebSockets,
    /// the query), or a 401 in the envelope.
    func authenticate(token: String) async throws -> String {
        let claims: TokenSigner.Claims
        do {
            claims = try signer.verify(token, kind: "access", now: now)
        } catch .expired {
            throw APIFailure.unauthorized("access token expired", code: "TOKEN_EXPIRED")
        } catch {
            throw APIFailure.unauthorized("invalid access token", code: "INVALID_TOKEN")
        }
        guard claims.generation >= (try await generation()) else {
            throw APIFailure.unauthorized("access token expired", code: "TOKEN_EXPIRED")
        }
        if !knownUsers.contains(claims.subject) {
            guard try store.query("SELECT id FROM users WHERE id = ?", [.text(claims.subject)]).first != nil else {
                throw APIFailure.unauthorized("the token's user no longer exists", code: "INVALID_TOKEN")
            }
            knownUsers.insert(claims.subject)
        }
        return claims.subject
    }

    /// Exchanges a refresh token for new tokens, rotating it (each works once).
    /// Every backend's refresh endpoint calls this; it counts as "refresh".
    func rotate(refreshToken token: String) async throws -> (userID: String, access: String, refresh: String) {
        counters.increment("refresh")
        guard let claims = try? signer.verify(token, kind: "refresh", now: now) else {
            throw APIFailure.unauthorized("refresh token invalid or expired; log in again", code: "INVALID_REFRESH_TOKEN")
        }
        let revoked = try store.query(
            "UPDATE refresh_tokens SET revoked = 1 WHERE jti = ? AND revoked = 0 RETURNING user_id", [.text(claims.id)])
        guard revoked.first != nil else {
            throw APIFailure.unauthorized("refresh token already used or revoked; log in again", code: "INVALID_REFRESH_TOKEN")
        }
        let tokens = try await issueTokens(userID: claims.subject)
        return (claims.subject, tokens.access, tokens.refresh)
    }

    /// Checks an email and password against `users` (columns email,
    /// password_hash); the user's id, or 401 INVALID_CREDENTIALS.
    func checkPassword(email: String, password: String) async throws -> String {
        let row = try store.query("SELECT id, password_hash FROM users WHERE email = ? COLLATE NOCASE", [.text(email)]).first
        guard let row, await verifyPassword(password, hash: row.text("password_hash")) else {
            throw APIFailure.unauthorized("incorrect email or password", code: "INVALID_CREDENTIALS")
        }
        counters.increment("login")
        return row.text("id")
    }

    func verifyPassword(_ password: String, hash: String) async -> Bool {
        // bcrypt is deliberately slow: keep it off the event loop.
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: Bcrypt.verify(password, hash: hash)) }
        }
    }
}

/// Reads a JSON object body (up to 1 MiB: larger is 413), or answers 400 in the envelope.
func jsonObject(_ request: Request) async throws -> JSONValue {
    let buffer: ByteBuffer
    do { buffer = try await request.body.collect(upTo: 1 << 20) } catch is NIOTooManyBytesError { throw APIFailure.bodyTooLarge }
    let bytes = Array(buffer.readableBytesView)
    guard !bytes.isEmpty else { throw APIFailure.badRequest("expected a JSON object body") }
    let value: JSONValue
    do { value = try JSONParser.parse(bytes) } catch {
        throw APIFailure.badRequest("body is not valid JSON: \(error)")
    }
    guard case .object = value else { throw APIFailure.badRequest("expected a JSON object body, got \(value.kindName)") }
    return value
}
