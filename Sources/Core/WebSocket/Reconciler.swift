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

    /// The profile's reconcile endpoints, or nil when it has none.
    public static func forProfile(_ session: AuthSession) -> Reconciler? {
        session.profile.name == Profile.linku.name ? linku(session) : nil
    }

    /// LinkU (docs/sandbox-chat.md): conversations name their last message;
    /// each conversation whose last message is newer than what was seen is
    /// read with `after_id`, oldest first.
    static func linku(_ session: AuthSession) -> Reconciler {
        @Sendable func conversations() async throws -> [JSONValue] {
            let body = try await get(session, "/api/users/conversations", [("page_size", "100")])
            guard case let .array(items)? = body["conversations"] else { return [] }
            return items
        }
        return Reconciler(
            latestID: { try await conversations().compactMap { $0["last_message"]?["id"]?.intValue }.max() },
            missed: { afterID in
                var found: [JSONValue] = []
                for conversation in try await conversations() {
                    guard let last = conversation["last_message"]?["id"]?.intValue, last > afterID,
                          let id = conversation["id"]?.intValue else { continue }
                    let body = try await get(session, "/api/users/messages", [
                        ("conversation_id", String(id)), ("after_id", String(afterID)), ("order", "asc"), ("page_size", "100"),
                    ])
                    if case let .array(messages)? = body["messages"] { found += messages }
                }
                return found.sorted { ($0["id"]?.intValue ?? 0) < ($1["id"]?.intValue ?? 0) }
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
