// Nova's bodies and answers: seed 003's Codable models (User, Post, Comment,
// Notification, FeedResponse, UserStats, AuthTokens) with its snake_case keys,
// and the shapes docs/sandbox-nova.md gives. Ids are UUID strings.
extension Model {
    static let novaAnswers: [Model] = [
        Model("User", [Field("id", .string), Field("username", .string), Field("email", .string), .optional("display_name", .string),
                       .optional("bio", .string), .optional("avatar_url", .string), Field("is_verified", .boolean), Field("created_at", .string)]),
        Model("AuthTokens", [Field("access_token", .string), Field("refresh_token", .string), Field("expires_in", .integer), Field("token_type", .string)]),
        Model("AuthResponse", [Field("user", .model("User")), Field("tokens", .model("AuthTokens"))]),
        Model("RefreshResponse", [Field("access_token", .string), Field("expires_in", .integer)]),
        Model("Post", [Field("id", .string), Field("user_id", .string), Field("image_url", .string), .optional("thumbnail_url", .string),
                       .optional("caption", .string), Field("like_count", .integer), Field("comment_count", .integer),
                       Field("is_liked", .boolean), Field("created_at", .string), Field("user", .model("User"))]),
        Model("PostResponse", [Field("post", .model("Post"))]),
        Model("FeedResponse", [Field("posts", .array(.model("Post"))), .optional("next_cursor", .string)]),
        Model("ExploreResponse", [Field("posts", .array(.model("Post"))), Field("has_more", .boolean)]),
        Model("Comment", [Field("id", .string), Field("post_id", .string), Field("user_id", .string), Field("text", .string),
                          Field("created_at", .string), Field("user", .model("User"))]),
        Model("CommentResponse", [Field("comment", .model("Comment"))]),
        Model("CommentList", [Field("comments", .array(.model("Comment"))), .optional("next_cursor", .string)]),
        Model("UserStats", [Field("post_count", .integer), Field("follower_count", .integer), Field("following_count", .integer),
                            Field("is_following", .boolean)]),
        Model("UserProfile", [Field("user", .model("User")), Field("stats", .model("UserStats"))]),
        Model("UserResponse", [Field("user", .model("User"))]),
        Model("UserList", [Field("users", .array(.model("User"))), .optional("next_cursor", .string)]),
        Model("Notification", [Field("id", .string), Field("type", .enumeration("NotificationType", ["like", "comment", "follow", "mention"])),
                               Field("actor_id", .string), .optional("post_id", .string), Field("is_read", .boolean), Field("created_at", .string),
                               Field("actor", .model("User")), .optional("post", .model("Post"))]),
        Model("NotificationList", [Field("notifications", .array(.model("Notification"))), .optional("next_cursor", .string),
                                   Field("unread_count", .integer)]),
        Model("UploadURL", [Field("upload_url", .string), Field("file_key", .string), Field("expires_in", .integer)]),
        Model("LikeState", [Field("liked", .boolean), Field("like_count", .integer)]),
        Model("FollowState", [Field("following", .boolean), Field("follower_count", .integer)]),
        Model("ErrorResponse", [Field("code", .string), Field("message", .string), .optional("details", .any)]),
    ]

    static let novaRegister = Model("RegisterRequest", [Field("email", .string), Field("password", .string), Field("username", .string)])
    static let novaLogin = Model("LoginRequest", [Field("email", .string), Field("password", .string)])
    static let novaRefresh = Model("RefreshRequest", [Field("refresh_token", .string)])
    static let novaVerify = Model("VerifyEmailRequest", [Field("code", .string)])
    static let novaUploadURL = Model("UploadURLRequest", [Field("content_type", .enumeration("ImageType", ["image/jpeg", "image/png"]), required: false)])
    static let novaPostCreate = Model("PostCreate", [Field("file_key", .string), Field("caption", .string, required: false)])
    static let novaComment = Model("CommentCreate", [Field("text", .string)])
    static let novaProfileUpdate = Model("ProfileUpdate", ["bio", "avatar_url", "display_name"].map { Field($0, .string, required: false) })
}
