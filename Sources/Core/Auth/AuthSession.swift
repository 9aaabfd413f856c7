import Foundation
import NIOCore

/// One request's round trip as the user sees it.
public struct Exchange: Sendable {
    /// The request as last sent (after a refresh, the retried one; after
    /// redirects, the last one), with the cookies and token it carried.
    public var request: PreparedRequest
    public var response: ReceivedResponse
    /// A 401 was answered by refreshing the tokens and retrying once (not
    /// when the retry took tokens another process had refreshed).
    public var refreshed: Bool
    /// A 401 could not be cured by a refresh: the tokens were cleared.
    public var sessionExpired: Bool
    /// Why no refresh cured it, when that is known: how the server worded its
    /// refusal (`the refresh was refused: 401 INVALID_REFRESH: …`), or that
    /// the login answer had no refresh token to send.
    public var refreshRefusal: String?
    /// The request would have carried the token, but it went to another
    /// origin than the backend's, so it went without (`CredentialScope`).
    public var tokenWithheld: Bool
    /// The session has headers (`header`, a profile's credential), but the
    /// request went to another origin, so it went without them.
    public var headersWithheld = false
    public var duration: Duration
    /// The redirects followed on the way (`--follow`), first to last: each
    /// request and its 3xx answer. Empty when none was followed.
    public var hops: [Exchange]
    /// The session's tokens when the answer came, and those a refresh
    /// replaced on the way: an answer that echoes one under a name of its
    /// own (a refresh token as `rt`) has it hidden as a carried credential.
    public var heldTokens: [String] = []
    /// The session's tokens when the answer came: after a refresh, the new
    /// ones (a recording learns them without asking the session again).
    public var tokensAfter: Tokens?
    /// What was odd about the refresh this exchange made, in one line: a
    /// profile path that found nothing in the refresh's answer.
    public var refreshWarning: String?
    /// Why the tokens this exchange brought (a login's, a refresh's) are
    /// kept for this session only: the token store could not be written.
    public var storeWarning: String?
    /// Why the line failed though an answer came: a login answered 200
    /// without the token where the profile says (the answer is shown: a
    /// replay said "no HTTP response", hiding the new shape), or a 401 whose
    /// refresh failed (not refused: the login stays).
    public var refusal: String?

    public init(request: PreparedRequest, response: ReceivedResponse, refreshed: Bool = false,
                sessionExpired: Bool = false, tokenWithheld: Bool = false, duration: Duration = .zero, hops: [Exchange] = []) {
        self.hops = hops
        self.request = request
        self.response = response
        self.refreshed = refreshed
        self.sessionExpired = sessionExpired
        self.tokenWithheld = tokenWithheld
        self.duration = duration
    }
}

/// What the session does with its token for one request.
public enum TokenDecision: Sendable, Equatable {
    /// No token is due: a public endpoint, the user's own credentials header, or no login.
    case none
    /// The token goes with the request, to the backend's own origin.
    case attached
    /// The token is due but the request leaves the backend's origin: it goes without.
    case withheld
}

/// Problems of the auth flow that are not transport failures.
public struct AuthError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
    public static let sessionExpired = AuthError("session expired, please log in")

    /// A refresh that neither worked nor was refused (the server failed, the
    /// answer had no token where the profile says): the login is kept.
    public static func refreshFailed(_ why: String) -> AuthError {
        AuthError("token refresh failed: \(why); still logged in (the next request tries again)")
    }
}

/// Tokens and the rules for using them (seed 000, "401 handling"): attach the
/// access token unless the endpoint is public; on a 401 refresh once and retry
/// the request once; while one refresh is in flight, every other 401 waits for
/// it instead of starting its own; a refused refresh clears the tokens (one
/// that failed otherwise keeps them).
public actor AuthSession {
    public nonisolated let profile: Profile
    public nonisolated let builder: RequestBuilder
    /// Where the tokens may go: the base URL's origin, nowhere else.
    public nonisolated let scope: CredentialScope
    private let transport: any HTTPTransport
    private let store: any TokenStore
    private let storeKey: String
    public private(set) var tokens: Tokens?
    private var refreshing: Task<Result<Renewal, any Error>, Never>?

    /// How a refresh came out: new tokens from the server, newer tokens
    /// another process had saved (no request made), or none (refused).
    enum Renewal {
        case refreshed, adopted, none
    }
    /// The transport's event loop, this actor's executor: see `HTTPTransport.eventLoop`.
    public nonisolated let eventLoop: any EventLoop
    public nonisolated var unownedExecutor: UnownedSerialExecutor { eventLoop.executor.asUnownedSerialExecutor() }

    public init(profile: Profile, builder: RequestBuilder, transport: any HTTPTransport, store: any TokenStore) {
        self.profile = profile
        self.builder = builder
        scope = CredentialScope(baseURL: builder.baseURL, socketURL: profile.webSocketBaseURL)
        self.transport = transport
        eventLoop = transport.eventLoop
        self.store = store
        storeKey = Self.storeKey(profile: profile, baseURL: builder.baseURL)
        tokens = store.load(key: storeKey)
    }

    /// Where a login is kept: by the profile's name and base URL, and the
    /// socket origin a profile names beside them (a project's file with
    /// the `name:` of the user's and another `websocket-url` took the user's
    /// stored login to the host it named).
    public static func storeKey(profile: Profile, baseURL: URL) -> String {
        let base = "\(profile.name) \(baseURL.absoluteString)"
        let scope = CredentialScope(baseURL: baseURL, socketURL: profile.webSocketBaseURL)
        guard let socket = scope.socketOrigin, socket != scope.origin else { return base }
        return base + " " + PatternText.socketURL(socket.description)
    }

    /// The logged-in user's display name from the login answer.
    public var userName: String? {
        // A login answer with no user (an OAuth 2 token endpoint's): the email it was given, as `login` said it.
        guard let user = tokens?.user else { return tokens?.email }
        return profile.auth.flatMap { user[$0.userNameField]?.plainText } ?? user["email"]?.plainText ?? tokens?.email
    }

    public var isLoggedIn: Bool { tokens != nil }

    /// Logs in; on success keeps the tokens (and saves them in the store).
    public func login(email: String, password: String) async throws -> Exchange {
        let auth = try loginFlow()
        let request = try loginRequest(email: email, password: password)
        let start = ContinuousClock.now
        let (sent, response) = try await exchange(request)
        var exchange = Exchange(request: sent, response: response, duration: ContinuousClock.now - start)
        // A redirect (Django's and Rails' login: 302 to /dashboard with a session cookie) is no token: it
        // went by as a success, exit 0, and `whoami` then said "not logged in".
        if (300..<400).contains(response.status) {
            let place = response.header("Location").map { " to " + Redactor.hidingCredentials(inLocation: $0.trimmingBlanks()) } ?? ""
            let kept = cookies.header(for: sent.url) != nil ? " (the cookie it set goes with the next requests: cookies lists it)" : ""
            exchange.refusal = "the login answered \(response.statusAndReason)\(place), not a token at \(auth.accessTokenPath)\(kept)"
            return exchange
        }
        guard (200..<300).contains(response.status) else { return exchange }
        guard let body = response.json else {
            exchange.refusal = "the login answer is not JSON (\(response.mediaType ?? "no Content-Type"), \(response.body.count) bytes)"
            return exchange
        }
        guard var tokens = Self.tokens(in: body, auth: auth, needsUser: false) else {
            exchange.refusal = "the login answer has no access token at \(auth.accessTokenPath)"
            return exchange
        }
        tokens.email = email
        setTokens(tokens)
        exchange.storeWarning = takeStoreWarning()
        // Without a refresh token the first 401 ends the login: a wrong `refresh-token:` path is said now, not then.
        if tokens.refreshToken == nil, auth.refreshPath != nil {
            exchange.refreshWarning = "the login answer has no refresh token at \(auth.refreshTokenPath) (the profile's refresh-token): "
                + "a 401 will end this login instead of refreshing it"
        }
        return exchange
    }

    /// Logs in from any answer that carries the profile's tokens and user,
    /// as a login answer does: a register, a login with an emailed code.
    /// Only a 2xx from the backend's own origin counts. Says whether it did.
    public func adoptTokens(from exchange: Exchange) throws -> Bool {
        // A login's answer is small: a spooled one is not read back whole to look.
        guard (200..<300).contains(exchange.response.status), scope.admits(exchange.request.url), exchange.response.spool == nil,
              let auth = profile.auth, let body = exchange.response.json, let found = Self.tokens(in: body, auth: auth, needsUser: true),
              found != tokens else { return false }
        // A profile whose user is the whole answer (`user: .`, an OAuth token endpoint's) finds one in any token
        // answer: a client_credentials grant tried by hand replaced the logged-in user, on disk too. Such an
        // answer is a login when the request sent the login's user field.
        if auth.userPath.components.isEmpty, !Self.sends(field: auth.loginEmailField, in: exchange.request) { return false }
        setTokens(found)
        return true
    }

    /// Whether a request's JSON or form body has a member `field` at its top.
    static func sends(field: String, in request: PreparedRequest) -> Bool {
        guard let body = request.body, !body.isEmpty else { return false }
        if let json = try? JSONParser.parse(body), case let .object(members) = json { return members.contains { $0.key == field } }
        return String(decoding: body, as: UTF8.self).split(separator: "&").contains { pair in
            (pair.prefix { $0 != "=" }.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "") == field
        }
    }

    /// The tokens a login-shaped answer carries; nil without an access token
    /// (or, with `needsUser`, without a user: a refresh answer has tokens but
    /// is not a login).
    static func tokens(in body: JSONValue, auth: AuthFlavour, needsUser: Bool) -> Tokens? {
        guard case let .success(access) = auth.accessTokenPath.evaluate(body), let accessToken = access.stringValue else { return nil }
        let user = try? auth.userPath.evaluate(body).get()
        if needsUser {
            guard case .object = user else { return nil }
        }
        // An empty one is none (it was sent back, `refresh_token=`, and refused, with no warning at the login).
        let refresh = (try? auth.refreshTokenPath.evaluate(body).get())?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        // The user is kept (in tokens.json too) for its name and id: its secret members are not (a backend
        // that echoed the password, or handed out an api_secret, had them written to disk in clear).
        return Tokens(accessToken: accessToken, refreshToken: refresh, userJSON: user.map { JSONPrinter.compact(Redactor.redact(json: $0)) })
    }

    /// The profile's login flow, or why there is none.
    public nonisolated func loginFlow() throws(AuthError) -> AuthFlavour {
        guard let auth = profile.auth else {
            if let source = profile.credentialSource {
                throw AuthError("\(profile.displayName) has no login: its profile sends \(source) with every request to the backend")
            }
            let onALine = "send credentials on a line (Authorization:'Bearer TOKEN', X-Api-Key:KEY) or for the session (auth bearer TOKEN)"
            guard profile.name == Profile.generic.name else {
                throw AuthError("\(profile.displayName)'s profile says no auth: give it an auth: section (docs/profiles.md, \"Auth\"), or \(onALine)")
            }
            throw AuthError("\(profile.displayName) has no login flow explorer knows: \(onALine), "
                            + "or describe the backend in a profile file: --profile FILE (docs/profiles.md)")
        }
        return auth
    }

    /// The request `login` sends (`--offline` shows it with the password hidden).
    public nonisolated func loginRequest(email: String, password: String) throws -> PreparedRequest {
        let auth = try loginFlow()
        let items: [RequestItem] = auth.loginFields.map { .stringField(name: $0.name, value: $0.value) } + [
            .stringField(name: auth.loginEmailField, value: email),
            .stringField(name: auth.loginPasswordField, value: password),
        ]
        return try builder.build(method: "POST", path: auth.loginPath, items: items, form: auth.sendsForm)
    }

    /// The request `logout` sends, without its token; nil when the profile
    /// has no logout endpoint or nobody is logged in.
    public func logoutRequest() throws(RequestBuilder.BuildError) -> PreparedRequest? {
        guard let auth = profile.auth, let path = auth.logoutPath, let tokens else { return nil }
        var items: [RequestItem] = []
        if auth.logoutSendsRefreshToken, let refresh = tokens.refreshToken { items.append(.stringField(name: auth.refreshTokenField, value: refresh)) }
        return try builder.build(method: "POST", path: path, items: items, form: auth.sendsForm && !items.isEmpty)
    }

    /// Tells the server (when the profile has a logout endpoint) and forgets
    /// the tokens. A saved login that could not be removed is said: as the
    /// exchange's `storeWarning`, or by `takeStoreWarning` when there is none.
    public func logout() async throws -> Exchange? {
        guard let request = try logoutRequest() else {
            setTokens(nil)
            return nil
        }
        var exchange: Exchange
        do {
            exchange = try await send(request, isPublic: false, retry: false)
        } catch {
            setTokens(nil)
            throw error
        }
        setTokens(nil)
        exchange.storeWarning = takeStoreWarning()
        return exchange
    }

    /// Forgets the tokens without telling the server.
    public func forget() { setTokens(nil) }

    /// Whether the profile lists the request's endpoint (its method and
    /// path) as public. The path is taken relative to the base URL, which may
    /// carry a prefix such as `/v1`.
    public nonisolated func isPublic(_ request: PreparedRequest) -> Bool {
        profile.isPublic(method: request.method, path: catalogPath(of: request))
    }

    /// Whether `request` goes to the login flow's own login or refresh path.
    private nonisolated func isAuthEndpoint(_ request: PreparedRequest) -> Bool {
        guard let auth = profile.auth, request.method.uppercased() == "POST" else { return false }
        let path = catalogPath(of: request)
        return path == auth.loginPath || path == auth.refreshPath
    }

    /// The token the session would attach to `request`, before the origin
    /// rule: nil for a public endpoint, a request that brings its own
    /// credentials header, or no login.
    private func wantedToken(_ request: PreparedRequest, isPublic: Bool, placement: TokenPlacement) -> String? {
        isPublic || request.header(placement.headerName) != nil ? nil : tokens?.accessToken
    }

    /// Whether the session would attach its token to `request` and where it
    /// would go: `.attached` to the backend's origin, `.withheld` for another
    /// origin, `.none` when no token is due. `--offline` shows this decision.
    public func tokenDecision(for request: PreparedRequest, isPublic: Bool? = nil,
                              token placement: TokenPlacement = .bearer) -> TokenDecision {
        guard wantedToken(withSessionHeaders(request), isPublic: isPublic ?? self.isPublic(request), placement: placement) != nil else { return .none }
        return scope.admits(request.url) ? .attached : .withheld
    }

    /// The request's path as the catalog writes it: relative to the base
    /// URL, which may carry a prefix such as `/v1`.
    public nonisolated func catalogPath(of request: PreparedRequest) -> String {
        var path = request.url.path
        var basePath = builder.baseURL.path
        while basePath.hasSuffix("/") { basePath.removeLast() }
        if !basePath.isEmpty, path.hasPrefix(basePath + "/") { path.removeFirst(basePath.count) }
        return path
    }

    /// Sends a request with the access token and the 401 rules above; the
    /// token goes where `token` says (`Authorization: Bearer` by default).
    /// A request that already carries that header is sent as is.
    ///
    /// With `follow`, a 3xx answer with a `Location` is followed (HTTPie's
    /// `--follow`): 303, and 301/302 after a POST, become a GET without a
    /// body; 307 and 308 keep method and body. A hop that leaves the
    /// request's origin drops the Authorization and Cookie headers typed on
    /// the line, and the client certificate; the session's token and cookies
    /// follow their own rules.
    public func send(_ request: PreparedRequest, isPublic: Bool? = nil, token placement: TokenPlacement = .bearer,
                     retry: Bool = true, follow: RedirectPolicy? = nil) async throws -> Exchange {
        let start = ContinuousClock.now
        var current = request
        var hops: [Exchange] = [] {
            didSet { lastHops = hops }
        }
        lastHops = []
        var publicHere = isPublic
        let before = tokens
        while true {
            var exchange = try await sendOnce(current, isPublic: publicHere, placement: placement, retry: retry)
            // A redirect not followed (one too many, one that cannot be) is the last hop shown: its headers say why.
            func stopped<E: Error>(_ error: E) -> E {
                lastHops = hops + [exchange]
                return error
            }
            let next: PreparedRequest?
            do { next = follow == nil ? nil : try RedirectPolicy.next(after: exchange.response, to: current) } catch { throw stopped(error) }
            guard let follow, let next else {
                exchange.hops = hops
                exchange.duration = ContinuousClock.now - start
                var held: [String] = []
                for token in [before?.accessToken, before?.refreshToken, tokens?.accessToken, tokens?.refreshToken] {
                    // Its bytes counted, not its characters: a JWT's 200 walked four times a request.
                    if let token, token.utf8.count >= SecretScrubber.minimumLength, !held.contains(token) { held.append(token) }
                }
                exchange.heldTokens = held
                exchange.tokensAfter = tokens
                return exchange
            }
            guard hops.count < follow.maximum else {
                throw stopped(RedirectPolicy.TooMany(limit: follow.maximum, location: next.url.absoluteString))
            }
            let leaves = Origin(next.url) != Origin(current.url)
            // A 307 or 308 sends the body again: to another origin, a password or a client secret in it would go
            // where it does not belong (curl and HTTPie send it; the headers beside it were already held back).
            if leaves, let body = next.body {
                // Secret-named fields, or a secret under any name (`note={{secret:key}}`, a captured token).
                let named = Self.secretFieldNames(in: body, type: next.header("Content-Type")) ?? []
                let tokens = [tokens?.accessToken, tokens?.refreshToken].compactMap { $0 }.filter { $0.count >= SecretScrubber.minimumLength }
                let holds = next.bodyHoldsSecret || tokens.contains { body.firstRange(of: Array($0.utf8)) != nil }
                if !named.isEmpty || holds {
                    let what = named.isEmpty ? "the body, which holds a secret," : "the body, with its \(named.joined(separator: ", ")),"
                    throw stopped(RedirectPolicy.Unfollowable(status: exchange.response.status,
                                                      why: "it would send \(what) again to another origin, "
                                                      + "\(Origin(next.url).map { "\($0)" } ?? next.url.absoluteString) (send it there yourself if it belongs there)"))
                }
            }
            hops.append(exchange)
            current = next
            if leaves {
                current.removeHeader("Authorization")
                current.removeHeader("Cookie")
                current.removeHeader(placement.headerName)
                // Any credential typed on the line (X-Api-Key, X-Auth-Token, Proxy-Authorization, a profile's
                // secret header, one holding a {{secret:}}): the origin they were typed for is the one left.
                current.headers.removeAll { header in
                    Redactor.isSecretName(header.name) || header.hasName("Proxy-Authorization") || Self.mayCarryACredential(header.name)
                        || profile.secretHeaders.contains(where: header.hasName)
                        || current.secretHeaderNames.contains { header.hasName($0) }
                }
                // The profile's query credential, copied into the Location by the server (`?api_key=…`), stays behind too.
                if let (name, value) = sessionQuery, var components = URLComponents(url: current.url, resolvingAgainstBaseURL: false),
                   let items = components.queryItems, items.contains(where: { $0.name == name && $0.value == value }) {
                    let kept = items.filter { !($0.name == name && $0.value == value) }
                    components.queryItems = kept.isEmpty ? nil : kept
                    if let url = components.url { current.url = url }
                }
                current.tls = current.tls?.withoutCertificate
            }
            if let vetoed = follow.vetting?(current) {
                hops.removeLast()
                throw stopped(RedirectPolicy.Unfollowable(status: exchange.response.status, why: vetoed.why, vetoed: vetoed))
            }
            publicHere = nil
        }
    }

    /// A header name that may carry a credential though no rule calls it
    /// secret (`X-Session`, `Session-Id`, `X-Access-Tok`): not sent on to
    /// another origin, where a wrong guess costs nothing but a header.
    static func mayCarryACredential(_ name: String) -> Bool {
        let lower = name.lowercased()
        return ["session", "tok", "key", "secret", "sid", "auth", "sig", "jwt", "cred", "pass", "bearer", "cookie"].contains { lower.contains($0) }
    }

    /// The secret-named fields of a JSON or form body (`password`,
    /// `client_secret`), whatever type it is said to be: `--raw
    /// 'password=…'` goes as application/json, and its password went on to
    /// another origin with a 307. Nil for a body that is neither.
    static func secretFieldNames(in body: [UInt8], type: String?) -> [String]? {
        let media = type?.lowercased() ?? ""
        if media.contains("json") || body.first == UInt8(ascii: "{") || body.first == UInt8(ascii: "["), let value = try? JSONParser.parse(body) {
            return Redactor.secretMembers(in: value).map(\.name)
        }
        guard body.contains(UInt8(ascii: "=")) else { return nil }
        let names = String(decoding: body, as: UTF8.self).split(whereSeparator: { $0 == "&" || $0 == "\n" }).compactMap { pair -> String? in
            guard pair.contains("=") else { return nil }
            let name = String(pair.prefix { $0 != "=" }).trimmingBlanks().replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            return Redactor.isSecretName(Redactor.leaf(of: name)) ? name : nil
        }
        return names
    }

    private func sendOnce(_ typed: PreparedRequest, isPublic: Bool?, placement: TokenPlacement, retry: Bool) async throws -> Exchange {
        // A session header the user set (an Authorization of their own) counts as the request's own.
        let request = withSessionHeaders(typed)
        let wanted = wantedToken(request, isPublic: isPublic ?? self.isPublic(request), placement: placement)
        let usedToken = scope.admits(request.url) ? wanted : nil
        let start = ContinuousClock.now
        let (first, response) = try await exchange(withToken(request, usedToken, placement))
        // A 401 from the login or refresh endpoint is about the credentials it was sent, not an expired
        // session: refreshing then sent a bogus refresh token twice, and rotated the session's own tokens.
        guard response.status == 401, retry, let usedToken, !isAuthEndpoint(request) else {
            var exchange = Exchange(request: first, response: response, tokenWithheld: wanted != nil && usedToken == nil,
                                    duration: ContinuousClock.now - start)
            exchange.headersWithheld = hasSessionCredentials && !scope.admits(request.url)
            return exchange
        }
        // The line's --timeout bounds its refresh too.
        var renewal: Renewal
        do { renewal = try await renew(after: usedToken, timeout: typed.timeout) } catch let failed as AuthError {
            // A refresh that failed (a 502, an answer without the token): the 401 it was to cure is shown, with
            // why it was not (the 401 was lost behind the refresh's error line, its body and message unseen).
            var unrefreshed = Exchange(request: first, response: response, duration: ContinuousClock.now - start)
            unrefreshed.refusal = failed.message
            return unrefreshed
        }
        guard renewal != .none, var fresh = tokens?.accessToken else {
            var expired = Exchange(request: first, response: response, sessionExpired: true, duration: ContinuousClock.now - start)
            expired.refreshRefusal = lastRefusal
            return expired
        }
        // Cancelled while the refresh ran: the request does not go again.
        try Task.checkCancellation()
        var (second, retried) = try await exchange(withToken(request, fresh, placement))
        if retried.status == 401, renewal == .adopted {
            // Another process's newer token had expired too (it refreshed a while ago):
            // a refresh of this session's own, with that process's newer refresh token.
            renewal = try await renew(after: fresh, timeout: typed.timeout)
            guard renewal != .none, let renewed = tokens?.accessToken else {
                var expired = Exchange(request: second, response: retried, sessionExpired: true, duration: ContinuousClock.now - start)
                expired.refreshRefusal = lastRefusal
                return expired
            }
            fresh = renewed
            (second, retried) = try await exchange(withToken(request, fresh, placement))
        }
        // Taking the tokens another process refreshed is no refresh of this one's: not said, nor
        // recorded (its replay would wait for a refresh that has no cause there).
        var done = Exchange(request: second, response: retried, refreshed: renewal == .refreshed, duration: ContinuousClock.now - start)
        if renewal == .refreshed {
            done.refreshWarning = refreshWarning
            done.storeWarning = takeStoreWarning()
        }
        return done
    }

    /// The session's cookies (RFC 6265 rules, in memory only): sent with
    /// every request they match, unless the request sets `Cookie` itself.
    public private(set) var cookies = CookieJar()

    public func clearCookies() { cookies.removeAll() }

    /// The jar with the cookies whose time has passed forgotten.
    public func unexpiredCookies() -> CookieJar {
        cookies.removeExpired()
        return cookies
    }

    /// Takes another session's cookies (`env NAME` moving on): each still
    /// goes only where its domain and path say.
    public func adoptCookies(_ jar: CookieJar) { cookies = jar }

    /// The `Cookie` header a request to `url` would carry from the jar.
    public func cookieHeader(for url: URL) -> String? { cookies.header(for: url) }

    /// The last request put on the wire, as it went: what `-v` shows of a
    /// request that got no answer.
    public private(set) var lastSent: PreparedRequest?

    /// The redirects the last `send` followed before its end, and the one
    /// it stopped at when it could not follow it: what `-v` shows before a
    /// later hop that got no answer, or with why it stopped.
    public private(set) var lastHops: [Exchange] = []

    /// Headers set for the session (`header Name:value`): sent with every
    /// request to the backend's origin that does not set them itself, and to
    /// no other origin, like the token (`CredentialScope`).
    public private(set) var sessionHeaders: [HTTPHeader] = []

    /// Sets a session header (replacing one of that name), or removes it for an empty value.
    public func setSessionHeader(_ name: String, _ value: String) {
        sessionHeaders.removeAll { $0.hasName(name) }
        if !value.isEmpty { sessionHeaders.append(HTTPHeader(name: name, value: value)) }
    }

    /// `header clear`: every session credential goes, a profile's query parameter too.
    public func clearSessionHeaders() {
        sessionHeaders.removeAll()
        sessionQuery = nil
    }

    /// The session's `--verify`, `--cert` and `--cert-key` (`defaults`,
    /// explorer's own flags): every request that gives none gets them, the
    /// session's own too (login, refresh), so a server behind a private CA
    /// can be logged in to.
    public private(set) var tls: TLSOptions?

    public func setTLS(_ options: TLSOptions?) { tls = options }

    /// How long a request the session makes of itself (a login, a logout,
    /// a refresh) waits for its answer when it says nothing itself: the
    /// session's `defaults --timeout` (a replay's `--timeout`). A login to a
    /// silent server waited the transport's 30 s whatever was given.
    public private(set) var timeout: Duration?

    public func setTimeout(_ timeout: Duration?) { self.timeout = timeout }

    /// Sets the session's credential (`auth …`): the header named `replacing`
    /// (the one the last `auth` set) goes, and so do any Authorization
    /// header and a profile's query parameter (`auth none` left an
    /// `?api_key=` on every request); nil leaves none (`auth none`).
    public func setCredential(_ header: HTTPHeader?, replacing old: String?) {
        sessionQuery = nil
        if let old { setSessionHeader(old, "") }
        setSessionHeader("Authorization", "")
        if let header { setSessionHeader(header.name, header.value) }
    }

    /// A query parameter sent with every request to the backend's origin
    /// that does not have it (a profile's `auth: query`, an API key).
    public private(set) var sessionQuery: (name: String, value: String)?

    public func setSessionQuery(_ name: String, _ value: String) { sessionQuery = (name, value) }

    /// The session headers a connection to `url` carries: all of them on the
    /// backend's origin, none elsewhere (a WebSocket handshake's rule too).
    public func sessionHeaders(for url: URL) -> [HTTPHeader] {
        scope.admits(url) ? sessionHeaders : []
    }

    /// Whether the session has credentials of its own to add (headers, a query parameter).
    var hasSessionCredentials: Bool { !sessionHeaders.isEmpty || sessionQuery != nil }

    /// `request` with the session headers and query parameter it would
    /// carry: those it does not set itself, when it goes to the backend's origin.
    public func withSessionHeaders(_ request: PreparedRequest) -> PreparedRequest {
        guard hasSessionCredentials, scope.admits(request.url) else { return request }
        var outgoing = request
        for header in sessionHeaders where outgoing.header(header.name) == nil { outgoing.headers.append(header) }
        if let (name, value) = sessionQuery, var components = URLComponents(url: outgoing.url, resolvingAgainstBaseURL: false),
           !(components.queryItems ?? []).contains(where: { $0.name == name }) {
            components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: name, value: value)]
            // `+` is a space to many servers: an API key with one must arrive as `+`.
            components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
            if let url = components.url { outgoing.url = url }
        }
        return outgoing
    }

    /// One request on the wire, with the session's headers and cookies,
    /// keeping the cookies the answer sets. What `send`, `login` and the
    /// refresh all use.
    private func exchange(_ request: PreparedRequest) async throws(TransportError) -> (sent: PreparedRequest, response: ReceivedResponse) {
        var outgoing = withSessionHeaders(request)
        if outgoing.tls == nil { outgoing.tls = scope.admits(request.url) ? tls : tls?.withoutCertificate }
        if outgoing.timeout == nil { outgoing.timeout = timeout }
        if outgoing.header("Cookie") == nil, let cookie = cookies.header(for: request.url) {
            outgoing.setHeader("Cookie", cookie)
        }
        lastSent = outgoing
        let response = try await transport.send(outgoing)
        cookies.store(response.headers, from: request.url)
        return (outgoing, response)
    }

    private func withToken(_ request: PreparedRequest, _ token: String?, _ placement: TokenPlacement) -> PreparedRequest {
        guard let token else { return request }
        var r = request
        r.setHeader(placement.headerName, placement.headerValue(token))
        return r
    }

    /// Refreshes unless someone already did since `failedToken` was used.
    /// Concurrent callers share one refresh call. Returns false when the
    /// server refused it (400, 401, 403, 422: the tokens are then cleared);
    /// throws `AuthError.refreshFailed` when it failed otherwise (a 5xx, a
    /// dropped connection, no token where the profile says), keeping the
    /// tokens: a backend's bad minute does not cost the login.
    public func refresh(after failedToken: String? = nil, timeout: Duration? = nil) async throws -> Bool {
        try await renew(after: failedToken, timeout: timeout) != .none
    }

    private func renew(after failedToken: String?, timeout: Duration?) async throws -> Renewal {
        lastRefusal = nil
        if let failedToken, let current = tokens?.accessToken, current != failedToken { return .refreshed }
        // Another process with this login (a script beside the REPL) may have refreshed since: its tokens, not a refresh.
        if adoptSavedTokens() { return .adopted }
        if let refreshing { return try await Self.waitCancellably(for: refreshing).get() }
        let task = Task {
            let result = await self.performRefresh(timeout: timeout)
            self.refreshEnded()
            return result
        }
        refreshing = task
        // Ctrl-C while the refresh runs ends the wait (the line said "request cancelled" after the refresh, and the
        // request went again all the same); the refresh goes on, so a rotated refresh token is still kept.
        return try await Self.waitCancellably(for: task).get()
    }

    private func refreshEnded() { refreshing = nil }

    /// `task`'s value, or CancellationError as soon as the waiting task is cancelled (awaiting a
    /// task's value does not end when the waiter is cancelled).
    private static func waitCancellably<T: Sendable>(for task: Task<T, Never>) async throws -> T {
        let waiter = CancellableWait<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiter.start(continuation)
                Task { waiter.finish(.success(await task.value)) }
            }
        } onCancel: {
            waiter.finish(.failure(CancellationError()))
        }
    }

    /// Why the last refresh could not be made or was refused (`Exchange.refreshRefusal`).
    private var lastRefusal: String?
    /// What was odd about the last refresh's answer (`Exchange.refreshWarning`).
    private var refreshWarning: String?

    /// How a server refuses a refresh token (expired, revoked, rotated away).
    private static let refusals: Set<Int> = [400, 401, 403, 422]

    private func performRefresh(timeout: Duration?) async -> Result<Renewal, any Error> {
        // Another explorer on this login may be refreshing it now: one refresh between them, whose tokens this one takes.
        let lock = await refreshLock()
        defer { lock?.release() }
        if adoptSavedTokens() { return .success(.adopted) }
        guard let refreshToken = tokens?.refreshToken, let auth = profile.auth, let refreshPath = auth.refreshPath else {
            // The login answer had none where the profile says: the 401 says so, not only "session expired".
            if let auth = profile.auth, tokens != nil {
                lastRefusal = auth.refreshPath == nil ? "the profile has no refresh-path"
                    : "no refresh token to send: the login answer had none at \(auth.refreshTokenPath) (the profile's refresh-token)"
            }
            setTokens(nil)
            return .success(.none)
        }
        var request: PreparedRequest
        do {
            let token: RequestItem = if let header = auth.refreshTokenHeader {
                .header(name: header, value: header.lowercased() == "authorization" ? "Bearer \(refreshToken)" : refreshToken)
            } else {
                .stringField(name: auth.refreshTokenField, value: refreshToken)
            }
            let items = auth.refreshFields.map { RequestItem.stringField(name: $0.name, value: $0.value) } + [token]
            request = try builder.build(method: "POST", path: refreshPath, items: items, form: auth.sendsForm && items.contains(where: \.isData))
            // A line's short --timeout does not cut the refresh short: the server rotates the refresh token all the same,
            // and the next request sent the spent one and ended the login. As after Ctrl-C, the refresh is let finish.
            request.timeout = timeout.map { Swift.max($0, .seconds(30)) }
            request.freshConnection = true
        } catch {
            return .success(.none)
        }
        let response: ReceivedResponse
        do { response = try await exchange(request).response } catch {
            switch error.kind {
            case .cancelled: return .failure(error)
            case .closedOnReuse: return .failure(AuthError.refreshFailed("the server closed the connection as \(refreshPath) went out"))
            default: return .failure(AuthError.refreshFailed(error.description))
            }
        }
        guard (200..<300).contains(response.status) else {
            guard Self.refusals.contains(response.status) else {
                return .failure(AuthError.refreshFailed("\(refreshPath) answered \(response.statusAndReason)"))
            }
            // Refused because another process refreshed first (the token rotated)? Its save may come a moment after.
            if adoptSavedTokens() { return .success(.adopted) }
            try? await Task.sleep(for: .milliseconds(300))
            if adoptSavedTokens() { return .success(.adopted) }
            setTokens(nil)
            lastRefusal = "the refresh was refused: "
                + (profile.errorEnvelope.describe(status: response.status, body: response.leadingJSON) ?? response.statusAndReason)
            return .success(.none)
        }
        // A server that rotates refresh tokens hands out a new one; without `refreshed-refresh-token` it is
        // looked for where the login's was (the second refresh sent the used one and lost the login).
        let rotated = response.json.flatMap { (try? (auth.refreshedRefreshTokenPath ?? auth.refreshTokenPath).evaluate($0).get())?.stringValue }
            .flatMap { $0.isEmpty ? nil : $0 }
        guard let body = response.json, let access = (try? auth.refreshedAccessTokenPath.evaluate(body).get())?.stringValue else {
            // The used refresh token is spent on a server that rotates them: a new one the answer did carry is
            // kept (it was thrown away, and the next refresh sent the spent one and ended the login).
            if let rotated, let tokens { setTokens(Tokens(accessToken: tokens.accessToken, refreshToken: rotated, userJSON: tokens.userJSON, email: tokens.email)) }
            let answer = response.json == nil ? "is not JSON"
                : "has no access token at \(auth.refreshedAccessTokenPath) (the profile's refreshed-access-token)"
            return .failure(AuthError.refreshFailed("the answer of \(refreshPath) \(answer)"))
        }
        let newRefresh = rotated ?? refreshToken
        // A path the profile names that finds nothing kept the used token silently: the next refresh sent it and
        // a server that rotates them ended the login.
        refreshWarning = nil
        if let path = auth.refreshedRefreshTokenPath, (try? path.evaluate(body).get())?.stringValue == nil {
            refreshWarning = "the answer of \(refreshPath) has no refresh token at \(path) (the profile's refreshed-refresh-token): "
                + "the old one is kept, which a server that rotates them refuses at the next refresh"
        }
        setTokens(Tokens(accessToken: access, refreshToken: newRefresh, userJSON: tokens?.userJSON, email: tokens?.email))
        return .success(.refreshed)
    }

    /// The store's refresh lock, waited for while another process holds it
    /// (a refresh takes a moment); after 10 s, none: a stuck process does
    /// not stop this one refreshing.
    private func refreshLock() async -> RefreshLock? {
        for _ in 0..<200 {
            if let lock = store.lockForRefresh(key: storeKey) { return lock }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }

    /// Takes this login's tokens as saved now when another process has
    /// saved newer ones (it refreshed them); says whether it did.
    private func adoptSavedTokens() -> Bool {
        guard let current = tokens, let saved = store.load(key: storeKey, owner: current.owner),
              saved.accessToken != current.accessToken else { return false }
        tokens = saved
        return true
    }

    /// Keeps `new` and saves it under its owner; nil forgets this session's
    /// own login (not another session's, saved since under another user).
    /// A store that cannot be written (a file where its folder goes, no
    /// permission) does not undo a login: the tokens are kept in memory,
    /// and why they are not saved is said once (`storeWarning`). A raw
    /// Foundation error failed the login's line, though it had logged in.
    private func setTokens(_ new: Tokens?) {
        let owner = (new ?? tokens)?.owner ?? ""
        tokens = new
        do {
            try store.save(key: storeKey, owner: owner, tokens: new)
        } catch {
            // A logout whose tokens stay on disk is said every time: the next run is logged in again.
            if new == nil {
                unsaved = "logged out of this session only; the saved login stays: \(error)"
            } else if !storeWarned {
                unsaved = "the login is kept for this session only: \(error)"
            }
        }
    }

    /// Why the last tokens were not saved, said once a session.
    private var unsaved: String?
    private var storeWarned = false

    public func takeStoreWarning() -> String? {
        defer { unsaved = nil }
        if unsaved != nil { storeWarned = true }
        return unsaved
    }
}

/// A continuation resumed once: by a value, or by a cancellation that may
/// come before the continuation is there.
private final class CancellableWait<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T, any Error>?
    private var early: Result<T, any Error>?
    private var done = false

    func start(_ continuation: CheckedContinuation<T, any Error>) {
        lock.lock()
        if let early {
            lock.unlock()
            continuation.resume(with: early)
            return
        }
        self.continuation = continuation
        lock.unlock()
    }

    func finish(_ result: Result<T, any Error>) {
        lock.lock()
        guard !done else { return lock.unlock() }
        done = true
        guard let continuation else {
            early = result
            return lock.unlock()
        }
        self.continuation = nil
        lock.unlock()
        continuation.resume(with: result)
    }
}
