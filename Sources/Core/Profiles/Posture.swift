// The posture-sensor app: seed 002 ("网络请求规范"), base path /api/v1. The
// seed shows only the log upload with a bearer token; the login that issues
// the token is the sandbox's choice (docs/sandbox-posture.md).
extension Profile {
    public static let posture = Profile(
        name: "posture",
        displayName: "Posture",
        auth: AuthFlavour(
            loginPath: "/api/v1/auth/login",
            loginEmailField: "email",
            loginPasswordField: "password",
            accessTokenPath: .known(".access_token"),
            refreshTokenPath: .known(".refresh_token"),
            userPath: .known(".user"),
            userNameField: "name",
            refreshPath: "/api/v1/auth/refresh",
            refreshTokenField: "refresh_token",
            refreshedAccessTokenPath: .known(".access_token"),
            refreshedRefreshTokenPath: .known(".refresh_token"),
            logoutPath: nil,
            whoAmIPath: "/api/v1/users/me"
        ),
        errorEnvelope: .codeMessage,
        endpoints: [
            Endpoint("POST", "/api/v1/auth/login", "Log in: {email, password} → {access_token, refresh_token, expires_in, user}", isPublic: true, body: .postureLogin, response: "LoginResponse"),
            Endpoint("POST", "/api/v1/auth/refresh", "New tokens from {refresh_token}", isPublic: true, body: .postureRefresh, response: "Tokens"),
            Endpoint("GET", "/api/v1/users/me", "The logged-in user", response: "User"),
            Endpoint("POST", "/api/v1/postures/logs", "Upload logs: a JSON array of {timestamp, postureType, duration, deviceId} → {accepted, duplicates}", response: "UploadResult"),
            Endpoint("GET", "/api/v1/postures/logs", "Your logs, oldest first (deviceId, from, to, page, page_size) → {logs, total, page, page_size}", query: ["deviceId", "from", "to", "page", "page_size"], response: "PostureLogList"),
        ],
        demoAccounts: [("alice@example.com", "alice123"), ("bob@example.com", "bob12345")],
        secretFields: ["access_token", "refresh_token", "password"]
    )
}
