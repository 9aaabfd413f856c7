/// After a reconnect, asks the backend over REST what the socket missed
/// (seed 000, "REST做补偿"). `latestID` is asked once before the first
/// connection, so a message missed before any arrived is found too.
public struct Reconciler: Sendable {
    public var latestID: @Sendable () async throws -> Int?
    public var missed: @Sendable (_ afterID: Int) async throws -> [JSONValue]

    public init(latestID: @escaping @Sendable () async throws -> Int?,
                missed: @escaping @Sendable (_ afterID: Int) async throws -> [JSONValue]) {
        self.latestID = latestID
        self.missed = missed
    }

    /// A reconciler for the profile's `webSocketReconcile` endpoints, or nil
    /// when the profile has none.
    public static func forProfile(_ session: AuthSession) -> Reconciler? {
        session.profile.webSocketReconcile.map { endpoints(session, $0) }
    }

    /// Reads the conversations; each one whose last message is newer than
    /// what was seen is read after that id. The found messages come out
    /// ordered by id.
    public static func endpoints(_ session: AuthSession, _ endpoints: ReconcileEndpoints) -> Reconciler {
        @Sendable func conversations() async throws -> [JSONValue] {
            let body = try await get(session, endpoints.conversationsPath, endpoints.conversationsQuery.map { ($0.name, $0.value) })
            guard case let .success(.array(items)) = endpoints.conversations.evaluate(body) else { return [] }
            return items
        }
        @Sendable func int(_ path: JSONPath, _ value: JSONValue) -> Int? {
            guard case let .success(found) = path.evaluate(value) else { return nil }
            return found.intValue
        }
        return Reconciler(
            latestID: { try await conversations().compactMap { int(endpoints.lastMessageID, $0) }.max() },
            missed: { afterID in
                var found: [JSONValue] = []
                for conversation in try await conversations() {
                    guard let last = int(endpoints.lastMessageID, conversation), last > afterID,
                          let id = int(endpoints.conversationID, conversation) else { continue }
                    let query = endpoints.messagesQuery.map { item in
                        (item.name, item.value.replacingOccurrences(of: "{conversation}", with: String(id))
                            .replacingOccurrences(of: "{after}", with: String(afterID)))
                    }
                    let body = try await get(session, endpoints.messagesPath, query)
                    if case let .success(.array(messages)) = endpoints.messages.evaluate(body) { found += messages }
                }
                return found.sorted { (int(endpoints.messageID, $0) ?? 0) < (int(endpoints.messageID, $1) ?? 0) }
            })
    }

    private static func get(_ session: AuthSession, _ path: String, _ query: [(String, String)]) async throws -> JSONValue {
        let request = try session.builder.build(method: "GET", path: path, items: query.map { .query(name: $0.0, value: $0.1) })
        let exchange = try await session.send(request)
        guard (200..<300).contains(exchange.response.status), let body = exchange.response.json else {
            throw ReconcileFailure(description: "\(path) answered \(exchange.response.status)")
        }
        return body
    }
}

struct ReconcileFailure: Error, CustomStringConvertible {
    let description: String
}
