// Level Up Solo: seed 004. camelCase tokens at the top level of the answer.
extension Profile {
    public static let levelup = Profile(
        name: "levelup",
        displayName: "Level Up Solo",
        auth: AuthFlavour(
            loginPath: "/api/auth/simple-login",
            loginEmailField: "email",
            loginPasswordField: "password",
            accessTokenPath: .known(".accessToken"),
            refreshTokenPath: .known(".refreshToken"),
            userPath: .known(".user"),
            userNameField: "firstName",
            refreshPath: "/api/auth/refresh",
            refreshTokenField: "refreshToken",
            refreshedAccessTokenPath: .known(".accessToken"),
            refreshedRefreshTokenPath: .known(".refreshToken"),
            logoutPath: nil,
            whoAmIPath: "/api/auth/user"
        ),
        errorEnvelope: .codeMessage,
        endpoints: [
            Endpoint("POST", "/api/auth/simple-login", "Log in: {email, password} → {message, accessToken, refreshToken, user}", isPublic: true, body: .levelupLogin, response: "LoginResponse"),
            Endpoint("GET", "/api/auth/user", "The logged-in user", response: "User"),
            Endpoint("POST", "/api/auth/refresh", "New tokens from {refreshToken}", isPublic: true, body: .levelupRefresh, response: "RefreshResponse"),
            Endpoint("GET", "/api/tasks", "The user's tasks, a bare array (completed, category)", query: ["completed", "category"]),
            Endpoint("POST", "/api/tasks", "Create a task: {title, description?, category?, difficulty?, expReward?} → 201 task", body: .levelupTaskCreate, response: "Task"),
            Endpoint("PATCH", "/api/tasks/{id}", "Update or complete your task: {completed: true, …} → task", body: .levelupTaskUpdate, response: "Task"),
        ],
        demoAccounts: [("demo@levelupsolo.net", "demo1234"), ("alice@example.com", "alice123"), ("bob@example.com", "bob12345")],
        secretFields: ["accessToken", "refreshToken", "password"]
    )
}
