// LinkU: seed 000 (appendix 1, the endpoint table) and seed 001 (the
// `APIEndpoints` list and its public-endpoint set). Where the two documents
// name different paths for one operation, both are listed and the summary says so.
extension Profile {
    public static let linku = Profile(
        name: "linku",
        displayName: "LinkU",
        auth: AuthFlavour(
            loginPath: "/api/secure-auth/login",
            loginEmailField: "email",
            loginPasswordField: "password",
            accessTokenPath: .known(".access_token"),
            refreshTokenPath: .known(".refresh_token"),
            userPath: .known(".user"),
            userNameField: "username",
            refreshPath: "/api/secure-auth/refresh",
            refreshTokenField: "refresh_token",
            refreshedAccessTokenPath: .known(".access_token"),
            refreshedRefreshTokenPath: .known(".refresh_token"),
            logoutPath: "/api/secure-auth/logout",
            whoAmIPath: "/api/users/profile/me"
        ),
        errorEnvelope: .linku,
        endpoints: linkuEndpoints,
        demoAccounts: [("alice@example.com", "alice123"), ("bob@example.com", "bob12345")],
        // Seed 000, "WebSocket service": the chat socket takes the token in the query.
        webSocketTemplate: "/ws/chat/{userId}?token={accessToken}",
        // Seed 000, "REST做补偿": after a reconnect, the conversations and their messages since.
        webSocketReconcile: .linku,
        secretFields: ["access_token", "refresh_token", "password", "new_password", "old_password"]
    )

    static let linkuEndpoints: [Endpoint] = [
        // Authentication (000, 001)
        Endpoint("POST", "/api/secure-auth/login", "Log in with email and password; returns access and refresh tokens", isPublic: true, body: .linkuLogin, response: "Session"),
        Endpoint("POST", "/api/secure-auth/login-with-code", "Log in with an emailed verification code", isPublic: true, body: .linkuCodeLogin, response: "Session"),
        Endpoint("POST", "/api/secure-auth/login-with-phone-code", "Log in with an SMS verification code", isPublic: true, body: .linkuPhoneCodeLogin, response: "Session"),
        Endpoint("POST", "/api/secure-auth/send-verification-code", "Send a verification code by email", isPublic: true, body: .linkuSendCode),
        Endpoint("POST", "/api/secure-auth/send-phone-verification-code", "Send a verification code by SMS", isPublic: true, body: .linkuSendPhoneCode),
        Endpoint("POST", "/api/secure-auth/refresh", "Exchange the refresh token for new tokens", body: .linkuRefresh, response: "Tokens"),
        Endpoint("POST", "/api/secure-auth/logout", "Log out and revoke the refresh token", body: .linkuLogout),
        // Shown before login, so served without a token.
        Endpoint("GET", "/api/secure-auth/captcha-site-key", "Captcha site key", isPublic: true),
        // Users
        Endpoint("POST", "/api/users/register", "Register (needs an email verification code)", isPublic: true, body: .linkuRegister, response: "Session"),
        Endpoint("GET", "/api/users/profile/me", "The logged-in user's profile", response: "User"),
        Endpoint("PUT", "/api/users/profile/me", "Update the logged-in user's profile", body: .linkuProfileUpdate, response: "User"),
        Endpoint("GET", "/api/users/profile/{userId}", "A user's public profile", response: "PublicUser"),
        Endpoint("POST", "/api/users/avatar", "Upload an avatar (000's path)"),
        Endpoint("POST", "/api/users/profile/avatar", "Upload an avatar (001's path)"),
        Endpoint("POST", "/api/users/profile/send-email-update-code", "Send a code to confirm an email change", body: .linkuEmailUpdateCode),
        Endpoint("POST", "/api/users/profile/send-phone-update-code", "Send a code to confirm a phone change", body: .linkuPhoneUpdateCode),
        Endpoint("GET", "/api/users/tasks", "Tasks the user posted or took (000's path)", query: ["role"] + ["page", "page_size", "category", "city", "status", "keyword", "min_price", "max_price"], response: "TaskListResponse"),
        Endpoint("GET", "/api/users/my-tasks", "Tasks the user posted or took (001's path)", query: ["role"] + ["page", "page_size", "category", "city", "status", "keyword", "min_price", "max_price"], response: "TaskListResponse"),
        Endpoint("GET", "/api/users/notifications", "Notifications", query: ["page", "page_size"], response: "NotificationList"),
        Endpoint("GET", "/api/users/notifications/unread", "Unread notifications", query: ["page", "page_size"], response: "NotificationList"),
        Endpoint("POST", "/api/users/notifications/{id}/read", "Mark a notification read", response: "Notification"),
        Endpoint("POST", "/api/users/notifications/read-all", "Mark every notification read"),
        // Tasks
        Endpoint("GET", "/api/tasks", "List tasks (page, page_size, category, city, status, keyword)", query: ["page", "page_size", "category", "city", "status", "keyword", "min_price", "max_price"], response: "TaskListResponse"),
        Endpoint("POST", "/api/tasks", "Post a task", body: .linkuTaskCreate, response: "Task"),
        Endpoint("GET", "/api/tasks/{id}", "One task", response: "Task"),
        Endpoint("PUT", "/api/tasks/{id}", "Update a task (owner only)", body: .linkuTaskUpdate, response: "Task"),
        Endpoint("POST", "/api/tasks/{id}/accept", "Apply for a task (000's path)", body: .linkuApplication),
        Endpoint("POST", "/api/tasks/{id}/apply", "Apply for a task (001's path)", body: .linkuApplication),
        Endpoint("POST", "/api/tasks/{id}/complete", "Mark a task completed (000's path)", response: "Task"),
        Endpoint("POST", "/api/users/tasks/{id}/complete", "Mark a task completed (001's path)", response: "Task"),
        Endpoint("POST", "/api/tasks/{id}/confirm_completion", "Confirm a task's completion (poster)", response: "Task"),
        Endpoint("POST", "/api/tasks/{id}/cancel", "Cancel a task (owner only)", body: .linkuCancel, response: "Task"),
        Endpoint("POST", "/api/tasks/{id}/delete", "Delete a task (owner only)"),
        Endpoint("GET", "/api/tasks/{id}/participants", "Who applied for or took a task", query: ["page", "page_size"]),
        // The seeds never say how a poster picks a taker; the sandbox adds these.
        Endpoint("POST", "/api/tasks/{id}/applications/{applicationId}/accept", "Accept an application (poster; sandbox addition)", response: "Task"),
        Endpoint("POST", "/api/tasks/{id}/applications/{applicationId}/reject", "Reject an application (poster; sandbox addition)"),
        // Forum
        Endpoint("GET", "/api/forum/forums/visible", "Forum categories", isPublic: true, query: ["page", "page_size"]),
        Endpoint("GET", "/api/forum/posts", "Forum posts", isPublic: true, query: ["page", "page_size", "category_id", "keyword"]),
        Endpoint("POST", "/api/forum/posts", "Write a forum post", body: .linkuForumPost),
        Endpoint("GET", "/api/forum/posts/{id}", "One forum post"),
        Endpoint("GET", "/api/forum/posts/{id}/replies", "Replies to a post", query: ["page", "page_size"]),
        Endpoint("POST", "/api/forum/posts/{id}/replies", "Reply to a post", body: .linkuForumReply),
        Endpoint("POST", "/api/forum/posts/{id}/view", "Count a view of a post"),
        Endpoint("POST", "/api/forum/likes", "Like a post or reply", body: .linkuForumLike),
        Endpoint("POST", "/api/forum/favorites", "Favourite a post", body: .linkuForumFavorite),
        // Flea market
        Endpoint("GET", "/api/flea-market/items", "List items (page, page_size, category, city, price range, keyword)", query: ["page", "page_size", "status", "category", "city", "keyword", "min_price", "max_price"], response: "FleaMarketItemList"),
        Endpoint("POST", "/api/flea-market/items", "Put an item up for sale", body: .linkuItemCreate, response: "FleaMarketItem"),
        Endpoint("GET", "/api/flea-market/items/{id}", "One item", response: "FleaMarketItem"),
        Endpoint("PUT", "/api/flea-market/items/{id}", "Update an item (owner only)", body: .linkuItemUpdate, response: "FleaMarketItem"),
        Endpoint("POST", "/api/flea-market/items/{id}/direct-purchase", "Buy an item at its price"),
        Endpoint("POST", "/api/flea-market/items/{id}/refresh", "Bump an item to the top of the list", response: "FleaMarketItem"),
        Endpoint("GET", "/api/flea-market/categories", "Item categories", query: ["page", "page_size"]),
        Endpoint("GET", "/api/flea-market/my-purchases", "Items the user bought", query: ["page", "page_size"]),
        Endpoint("GET", "/api/flea-market/favorites/items", "Items the user favourited", query: ["page", "page_size"], response: "FleaMarketItemList"),
        Endpoint("POST", "/api/flea-market/items/{id}/favorite", "Favourite or unfavourite an item (sandbox addition)"),
        Endpoint("GET", "/api/users/flea-market/items", "Items the user put up for sale", query: ["page", "page_size", "status", "category", "city", "keyword", "min_price", "max_price"], response: "FleaMarketItemList"),
        // Task experts
        Endpoint("GET", "/api/task-experts", "Task experts", query: ["page", "page_size", "city", "keyword"]),
        Endpoint("GET", "/api/task-experts/{id}", "One task expert"),
        Endpoint("GET", "/api/task-experts/{id}/services", "An expert's services", query: ["page", "page_size"]),
        Endpoint("POST", "/api/task-experts/services/{serviceId}/apply", "Apply for an expert's service", body: .linkuApplication),
        Endpoint("POST", "/api/task-experts/apply", "Apply to become a task expert", body: .linkuExpertApply),
        // Activities
        Endpoint("GET", "/api/activities", "Activities", isPublic: true, query: ["page", "page_size", "city", "keyword", "status"]),
        Endpoint("GET", "/api/activities/{id}", "One activity"),
        Endpoint("POST", "/api/activities/{id}/apply", "Sign up for an activity"),
        Endpoint("POST", "/api/activities/{id}/favorite", "Favourite an activity"),
        Endpoint("GET", "/api/activities/{id}/favorite/status", "Whether the user favourited an activity"),
        // Messages
        Endpoint("GET", "/api/users/conversations", "Conversations", query: ["page", "page_size"], response: "ConversationList"),
        Endpoint("GET", "/api/users/messages", "Messages of one conversation", query: ["conversation_id", "user_id", "page", "page_size"], response: "MessageList"),
        Endpoint("POST", "/api/users/messages/send", "Send a message", body: .linkuSendMessage, response: "Message"),
        Endpoint("PUT", "/api/users/messages/{id}/read", "Mark a message read", response: "Message"),
        // Common
        Endpoint("POST", "/api/upload/image", "Upload an image (multipart); returns its URL"),
        Endpoint("GET", "/api/banners", "Home page banners", isPublic: true, query: ["page", "page_size"]),
        Endpoint("GET", "/uploads/{name}", "An uploaded image (sandbox addition)", isPublic: true),
    ]
}
