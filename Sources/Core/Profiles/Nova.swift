// NovaInstagram: seed 003 ("API 端点定义"). Tokens nest under `tokens`; refresh
// returns only a new access token; pagination is by `next_cursor`.
extension Profile {
    public static let nova = Profile(
        name: "nova",
        displayName: "Nova",
        auth: AuthFlavour(
            loginPath: "/auth/login",
            loginEmailField: "email",
            loginPasswordField: "password",
            accessTokenPath: .known(".tokens.access_token"),
            refreshTokenPath: .known(".tokens.refresh_token"),
            userPath: .known(".user"),
            userNameField: "username",
            refreshPath: "/auth/refresh",
            refreshTokenField: "refresh_token",
            refreshedAccessTokenPath: .known(".access_token"),
            refreshedRefreshTokenPath: nil,
            logoutPath: "/auth/logout",
            logoutSendsRefreshToken: false,
            // 003 has no "who am I"; the sandbox adds GET /users/me beside PUT /users/me.
            whoAmIPath: "/users/me"
        ),
        errorEnvelope: .codeMessage,
        endpoints: [
            Endpoint("POST", "/auth/register", "Register: {email, password, username} → 201 {user, tokens}; a code is \"emailed\"", isPublic: true, body: .novaRegister, response: "AuthResponse"),
            Endpoint("POST", "/auth/login", "Log in: {email, password} → {user, tokens}; 429 after 5 failures a minute", isPublic: true, body: .novaLogin, response: "AuthResponse"),
            Endpoint("POST", "/auth/refresh", "New access token from {refresh_token} → {access_token, expires_in}", isPublic: true, body: .novaRefresh, response: "RefreshResponse"),
            Endpoint("POST", "/auth/logout", "Log out: revokes the refresh tokens (204)"),
            Endpoint("POST", "/auth/verify-email", "Verify the email with {code} → {verified: true}", body: .novaVerify),
            Endpoint("GET", "/feed", "Home feed, newest first (cursor, limit) → {posts, next_cursor}", query: ["cursor", "limit"], response: "FeedResponse"),
            Endpoint("GET", "/feed/explore", "Explore, most liked first (page, limit) → {posts, has_more}", query: ["page", "limit"], response: "ExploreResponse"),
            Endpoint("POST", "/posts/upload-url", "Get an upload URL for an image: {content_type?} → {upload_url, file_key, expires_in}", body: .novaUploadURL, response: "UploadURL"),
            Endpoint("PUT", "/uploads/{file_key}", "Upload the image bytes (PNG or JPEG, ≤ 10 MiB) to an upload URL", isPublic: true),
            Endpoint("GET", "/uploads/{file_key}", "An uploaded image (a post's image_url)", isPublic: true),
            Endpoint("POST", "/posts", "Create a post: {file_key, caption?} → 201 {post}", body: .novaPostCreate, response: "PostResponse"),
            Endpoint("GET", "/posts/{id}", "One post → {post}", response: "PostResponse"),
            Endpoint("DELETE", "/posts/{id}", "Delete a post (author only, 204)"),
            Endpoint("POST", "/posts/{id}/like", "Like a post → {liked, like_count}", response: "LikeState"),
            Endpoint("DELETE", "/posts/{id}/like", "Unlike a post → {liked, like_count}", response: "LikeState"),
            Endpoint("GET", "/posts/{id}/comments", "Comments, oldest first (cursor, limit) → {comments, next_cursor}", query: ["cursor", "limit"], response: "CommentList"),
            Endpoint("POST", "/posts/{id}/comments", "Comment on a post: {text} → 201 {comment}", body: .novaComment, response: "CommentResponse"),
            Endpoint("DELETE", "/comments/{id}", "Delete a comment (its author or the post's author, 204)"),
            Endpoint("GET", "/users/me", "The logged-in user (sandbox addition)", response: "User"),
            Endpoint("PUT", "/users/me", "Update your profile: {bio?, avatar_url?, display_name?} → {user}", body: .novaProfileUpdate, response: "UserResponse"),
            Endpoint("GET", "/users/search", "Search users (q, limit) → {users}", query: ["q", "limit"], response: "UserList"),
            Endpoint("GET", "/users/{username}", "A user by username → {user, stats}", response: "UserProfile"),
            Endpoint("GET", "/users/{id}/posts", "A user's posts, newest first (cursor, limit) → {posts, next_cursor}", query: ["cursor", "limit"], response: "FeedResponse"),
            Endpoint("POST", "/users/{id}/follow", "Follow a user → {following, follower_count}", response: "FollowState"),
            Endpoint("DELETE", "/users/{id}/follow", "Unfollow a user → {following, follower_count}", response: "FollowState"),
            Endpoint("GET", "/users/{id}/followers", "Followers (cursor, limit) → {users, next_cursor}", query: ["cursor", "limit"], response: "UserList"),
            Endpoint("GET", "/users/{id}/following", "Following (cursor, limit) → {users, next_cursor}", query: ["cursor", "limit"], response: "UserList"),
            Endpoint("GET", "/notifications", "Notifications (cursor, limit) → {notifications, next_cursor, unread_count}", query: ["cursor", "limit"], response: "NotificationList"),
            Endpoint("PUT", "/notifications/{id}/read", "Mark a notification read (204)"),
            Endpoint("PUT", "/notifications/read-all", "Mark every notification read (204)"),
            Endpoint("GET", "/__sandbox/verification-codes", "Sandbox only: the codes \"emailed\" to an address (email)", isPublic: true, query: ["email"]),
        ],
        demoAccounts: [("alice@example.com", "alice123"), ("bob@example.com", "bob12345")],
        // Login and register nest the tokens; refresh answers a bare access_token.
        secretFields: ["tokens.access_token", "tokens.refresh_token", "access_token", "refresh_token", "password"]
    )
}
