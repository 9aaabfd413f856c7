/// Where a backend tells over REST what a socket missed (seed 000, "REST做补偿"),
/// as data on the `Profile`: a list of conversations that each name their
/// last message, and one conversation's messages after a message id. A
/// backend of another shape gets other values here, not new code.
///
/// In query values, `{conversation}` and `{after}` are replaced by the
/// conversation's id and the last message id seen.
public struct ReconcileEndpoints: Sendable, Equatable {
    public struct Query: Sendable, Equatable {
        public var name: String
        public var value: String
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// `GET` this path (with `conversationsQuery`) lists the conversations.
    public var conversationsPath: String
    public var conversationsQuery: [Query]
    /// Where the list is in that answer.
    public var conversations: JSONPath
    /// In one conversation: its id, and its last message's id.
    public var conversationID: JSONPath
    public var lastMessageID: JSONPath
    /// `GET` this path (with `messagesQuery`, filled) lists one conversation's
    /// messages after `{after}`, oldest first.
    public var messagesPath: String
    public var messagesQuery: [Query]
    /// Where the list is in that answer, and a message's id in it.
    public var messages: JSONPath
    public var messageID: JSONPath

    public init(conversationsPath: String, conversationsQuery: [Query], conversations: JSONPath,
                conversationID: JSONPath, lastMessageID: JSONPath, messagesPath: String, messagesQuery: [Query],
                messages: JSONPath, messageID: JSONPath) {
        self.conversationsPath = conversationsPath
        self.conversationsQuery = conversationsQuery
        self.conversations = conversations
        self.conversationID = conversationID
        self.lastMessageID = lastMessageID
        self.messagesPath = messagesPath
        self.messagesQuery = messagesQuery
        self.messages = messages
        self.messageID = messageID
    }
}
