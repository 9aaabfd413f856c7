// LinkU's bodies and answers: seed 000's models (User, Task and TaskStatus,
// FleaMarketItem and its status, Message, Conversation), seed 001's error
// envelope, and the shapes docs/sandbox-linku.md and docs/sandbox-chat.md give.
extension Model {
    static let linkuTaskStatus = FieldType.enumeration("TaskStatus", ["open", "in_progress", "completed", "confirmed", "cancelled"])
    static let linkuItemStatus = FieldType.enumeration("FleaMarketItemStatus", ["available", "sold", "removed"])
    static let linkuMessageType = FieldType.enumeration("MessageType", ["text", "image", "file"])

    /// Every list answers `{<items>, total, page, page_size}`.
    static func linkuPage(_ name: String, _ key: String, _ element: String) -> Model {
        Model(name, [Field(key, .array(.model(element))), Field("total", .integer), Field("page", .integer), Field("page_size", .integer)])
    }

    static let linkuAnswers: [Model] = [
        Model("Session", [Field("access_token", .string), Field("refresh_token", .string), Field("token_type", .string),
                          Field("expires_in", .integer), Field("user", .model("User"))]),
        Model("Tokens", [Field("access_token", .string), Field("refresh_token", .string), Field("token_type", .string), Field("expires_in", .integer)]),
        Model("User", [Field("id", .integer), Field("email", .string), Field("username", .string), .optional("phone", .string),
                       .optional("avatar", .string), .optional("bio", .string), .optional("city", .string), Field("created_at", .string)]),
        Model("PublicUser", [Field("id", .integer), Field("username", .string), .optional("avatar", .string), .optional("bio", .string),
                             .optional("city", .string), Field("posted_tasks", .integer), Field("completed_tasks", .integer), Field("created_at", .string)]),
        Model("Task", [Field("id", .integer), Field("title", .string), .optional("description", .string), Field("category", .string),
                       .optional("city", .string), Field("price", .number), Field("status", linkuTaskStatus), Field("poster_id", .integer),
                       .optional("taker_id", .integer), Field("images", .array(.string)), Field("created_at", .string), Field("updated_at", .string)]),
        linkuPage("TaskListResponse", "tasks", "Task"),
        Model("UserSummary", [Field("id", .integer), Field("username", .string), .optional("avatar", .string)]),
        Model("FleaMarketItem", [Field("id", .integer), Field("title", .string), .optional("description", .string), .optional("category", .string),
                                 .optional("city", .string), Field("price", .number), Field("images", .array(.string)), Field("status", linkuItemStatus),
                                 Field("seller_id", .integer), Field("seller", .model("UserSummary")), Field("favorite_count", .integer),
                                 Field("is_favorited", .boolean), Field("created_at", .string), Field("updated_at", .string),
                                 .optional("refreshed_at", .string)]),
        linkuPage("FleaMarketItemList", "items", "FleaMarketItem"),
        Model("Notification", [Field("id", .integer), Field("type", .string), Field("title", .string), Field("content", .string),
                               .optional("related_type", .string), .optional("related_id", .integer), Field("is_read", .boolean), Field("created_at", .string)]),
        linkuPage("NotificationList", "notifications", "Notification"),
        Model("Message", [Field("id", .integer), Field("conversation_id", .integer), Field("sender_id", .integer), Field("receiver_id", .integer),
                          Field("content", .string), Field("type", linkuMessageType), .optional("client_message_id", .string),
                          Field("is_read", .boolean), .optional("read_at", .string), Field("created_at", .string)]),
        Model("Conversation", [Field("id", .integer), Field("other_user", .model("UserSummary")), .optional("last_message", .model("Message")),
                               Field("unread_count", .integer), Field("updated_at", .string)]),
        Model("ConversationList", [Field("conversations", .array(.model("Conversation"))), Field("total", .integer), Field("unread_total", .integer),
                                   Field("page", .integer), Field("page_size", .integer)]),
        Model("MessageList", [Field("messages", .array(.model("Message"))), .optional("conversation_id", .integer), Field("total", .integer),
                              Field("page", .integer), Field("page_size", .integer)]),
        Model("LinkUError", [Field("error", .boolean), Field("message", .string), Field("error_code", .string), Field("status_code", .integer),
                             .optional("details", .any)]),
    ]

    // Request bodies (docs/sandbox-linku.md, "Body" columns).
    static let linkuLogin = Model("LoginRequest", [Field("email", .string), Field("password", .string)])
    static let linkuCodeLogin = Model("CodeLoginRequest", [Field("email", .string), Field("verification_code", .string)])
    static let linkuPhoneCodeLogin = Model("PhoneCodeLoginRequest", [Field("phone", .string), Field("verification_code", .string)])
    static let linkuSendCode = Model("SendCodeRequest", [Field("email", .string)])
    static let linkuSendPhoneCode = Model("SendPhoneCodeRequest", [Field("phone", .string)])
    static let linkuRefresh = Model("RefreshRequest", [Field("refresh_token", .string)])
    static let linkuLogout = Model("LogoutRequest", [Field("refresh_token", .string, required: false)])
    static let linkuRegister = Model("RegisterRequest", [Field("email", .string), Field("password", .string), Field("verification_code", .string),
                                                         Field("username", .string, required: false)])
    static let linkuProfileUpdate = Model("ProfileUpdate", ["username", "bio", "city", "avatar", "email", "email_verification_code",
                                                            "phone", "phone_verification_code"].map { Field($0, .string, required: false) })
    static let linkuEmailUpdateCode = Model("EmailUpdateCodeRequest", [Field("new_email", .string)])
    static let linkuPhoneUpdateCode = Model("PhoneUpdateCodeRequest", [Field("new_phone", .string)])
    static let linkuTaskCreate = Model("TaskCreate", [Field("title", .string), Field("description", .string, required: false),
                                                      Field("category", .string, required: false), Field("city", .string, required: false),
                                                      Field("price", .number, required: false), Field("images", .array(.string), required: false)])
    static let linkuTaskUpdate = Model("TaskUpdate", linkuTaskCreate.fields.map { Field($0.name, $0.type, required: false) })
    static let linkuApplication = Model("ApplicationRequest", [Field("message", .string, required: false)])
    static let linkuCancel = Model("CancelRequest", [Field("reason", .string, required: false)])
    static let linkuForumPost = Model("ForumPostCreate", [Field("category_id", .integer), Field("title", .string), Field("content", .string),
                                                          Field("images", .array(.string), required: false)])
    static let linkuForumReply = Model("ForumReplyCreate", [Field("content", .string), Field("parent_reply_id", .integer, required: false)])
    static let linkuForumLike = Model("ForumLikeRequest", [Field("target_type", .enumeration("LikeTarget", ["post", "reply"])), Field("target_id", .integer)])
    static let linkuForumFavorite = Model("ForumFavoriteRequest", [Field("post_id", .integer)])
    static let linkuItemCreate = Model("FleaMarketItemCreate", [Field("title", .string), Field("price", .number),
                                                                Field("description", .string, required: false), Field("category", .string, required: false),
                                                                Field("city", .string, required: false), Field("images", .array(.string), required: false)])
    static let linkuItemUpdate = Model("FleaMarketItemUpdate", linkuItemCreate.fields.map { Field($0.name, $0.type, required: false) }
        + [Field("status", .enumeration("FleaMarketItemStatus", ["available", "removed"]), required: false)])
    static let linkuExpertApply = Model("ExpertApplication", [Field("bio", .string), Field("specialties", .array(.string)),
                                                              Field("city", .string, required: false)])
    static let linkuSendMessage = Model("SendMessageRequest", [Field("receiver_id", .integer), Field("content", .string),
                                                               Field("type", linkuMessageType, required: false),
                                                               Field("client_message_id", .string, required: false)])
}
