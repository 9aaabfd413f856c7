/// Remembers the last `capacity` message ids, so a message delivered twice
/// (a re-send after a reconnect, a reconcile overlapping the socket) is
/// reported once (seed 000: "同一messageId，要去重"). Bounded, so a long
/// session does not grow without end.
public struct MessageDeduplicator: Sendable {
    public let capacity: Int
    private var seen: Set<String> = []
    private var order: [String] = []
    private var head = 0

    public init(capacity: Int) { self.capacity = max(1, capacity) }

    /// True the first time an id is seen within the window.
    public mutating func isNew(_ id: String) -> Bool {
        guard seen.insert(id).inserted else { return false }
        if order.count < capacity {
            order.append(id)
        } else {
            // A ring: the oldest id leaves as the new one enters.
            seen.remove(order[head])
            order[head] = id
            head = (head + 1) % capacity
        }
        return true
    }
}
