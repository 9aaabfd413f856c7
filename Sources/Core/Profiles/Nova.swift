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
            Endpoint("POST", "/auth/register", "Register: {email, password, username} → {user, tokens}", isPublic: true),
            Endpoint("POST", "/auth/login", "Log in: {email, password} → {user, tokens}", isPublic: true),
            Endpoint("POST", "/auth/refresh", "New access token from {refresh_token}", isPublic: true),
            Endpoint("POST", "/auth/logout", "Log out (204)"),
            Endpoint("POST", "/auth/verify-email", "Verify the email with {code}"),
            Endpoint("GET", "/feed", "Home feed (cursor, limit) → {posts, next_cursor}"),
            Endpoint("GET", "/feed/explore", "Explore (page, limit) → {posts, has_more}"),
            Endpoint("POST", "/posts/upload-url", "Get an upload URL for an image"),
            Endpoint("POST", "/posts", "Create a post"),
            Endpoint("GET", "/posts/{id}", "One post"),
            Endpoint("DELETE", "/posts/{id}", "Delete a post (owner only)"),
            Endpoint("POST", "/posts/{id}/like", "Like a post"),
            Endpoint("DELETE", "/posts/{id}/like", "Unlike a post"),
            Endpoint("GET", "/posts/{id}/comments", "Comments (cursor, limit) → {comments, next_cursor}"),
            Endpoint("POST", "/posts/{id}/comments", "Comment on a post"),
            Endpoint("DELETE", "/comments/{id}", "Delete a comment (author only)"),
            Endpoint("GET", "/users/me", "The logged-in user (sandbox addition)"),
            Endpoint("PUT", "/users/me", "Update the logged-in user's profile"),
            Endpoint("GET", "/users/search", "Search users (q)"),
            Endpoint("GET", "/users/{username}", "A user by username"),
            Endpoint("GET", "/users/{id}/posts", "A user's posts (cursor, limit)"),
            Endpoint("POST", "/users/{id}/follow", "Follow a user"),
            Endpoint("DELETE", "/users/{id}/follow", "Unfollow a user"),
            Endpoint("GET", "/users/{id}/followers", "Followers (cursor, limit)"),
            Endpoint("GET", "/users/{id}/following", "Following (cursor, limit)"),
            Endpoint("GET", "/notifications", "Notifications (cursor, limit) → {notifications, next_cursor, unread_count}"),
            Endpoint("PUT", "/notifications/{id}/read", "Mark a notification read"),
            Endpoint("PUT", "/notifications/read-all", "Mark every notification read"),
        ],
        demoAccounts: [("alice@example.com", "alice123"), ("bob@example.com", "bob12345")]
    )
}
