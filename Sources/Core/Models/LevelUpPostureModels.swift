// Level Up Solo (seed 004: LoginResponse, User, camelCase) and the posture
// app (seed 002: PostureLog, PostureType), with docs/sandbox-levelup.md and
// docs/sandbox-posture.md for what the seeds leave open.
extension Model {
    static let codeMessageError = Model("ErrorResponse", [Field("code", .string), Field("message", .string), .optional("details", .any)])

    static let levelupAnswers: [Model] = [
        Model("User", [Field("id", .string), Field("email", .string), .optional("firstName", .string), .optional("lastName", .string),
                       Field("hasCompletedOnboarding", .boolean, required: false)]),
        Model("LoginResponse", [Field("message", .string), Field("accessToken", .string), Field("refreshToken", .string), Field("user", .model("User"))]),
        Model("RefreshResponse", [Field("accessToken", .string), Field("refreshToken", .string)]),
        Model("Task", [Field("id", .integer), Field("title", .string), .optional("description", .string),
                       Field("category", .enumeration("TaskCategory", ["habit", "daily", "todo"])),
                       Field("difficulty", .enumeration("Difficulty", ["easy", "medium", "hard"])), Field("expReward", .integer),
                       Field("completed", .boolean), .optional("completedAt", .string), Field("createdAt", .string)]),
        codeMessageError,
    ]

    static let levelupLogin = Model("LoginRequest", [Field("email", .string), Field("password", .string)])
    static let levelupRefresh = Model("RefreshRequest", [Field("refreshToken", .string)])
    static let levelupTaskCreate = Model("TaskCreate", [Field("title", .string), Field("description", .string, required: false),
                                                        Field("category", .enumeration("TaskCategory", ["habit", "daily", "todo"]), required: false),
                                                        Field("difficulty", .enumeration("Difficulty", ["easy", "medium", "hard"]), required: false),
                                                        Field("expReward", .integer, required: false)])
    static let levelupTaskUpdate = Model("TaskUpdate", levelupTaskCreate.fields.map { Field($0.name, $0.type, required: false) }
        + [Field("completed", .boolean, required: false)])

    static let postureType = FieldType.enumeration("PostureType", ["normal", "hunched", "lean_left", "lean_right"])
    static let postureAnswers: [Model] = [
        Model("User", [Field("id", .any), Field("email", .string), .optional("name", .string)]),
        Model("LoginResponse", [Field("access_token", .string), Field("refresh_token", .string), Field("expires_in", .integer), Field("user", .model("User"))]),
        Model("Tokens", [Field("access_token", .string), Field("refresh_token", .string), Field("expires_in", .integer)]),
        Model("PostureLog", [Field("id", .string), Field("timestamp", .string), Field("postureType", postureType), Field("duration", .number),
                             Field("deviceId", .string)]),
        Model("PostureLogList", [Field("logs", .array(.model("PostureLog"))), Field("total", .integer), Field("page", .integer), Field("page_size", .integer)]),
        Model("UploadResult", [Field("accepted", .integer), Field("duplicates", .integer)]),
        codeMessageError,
    ]
    static let postureLogin = Model("LoginRequest", [Field("email", .string), Field("password", .string)])
    static let postureRefresh = Model("RefreshRequest", [Field("refresh_token", .string)])
}

extension Profile {
    /// The answers' models of this profile, and the request bodies its catalog
    /// names, for `describe` and the drift check.
    public var models: [Model] {
        if let importedModels { return importedModels }
        let answers: [Model] = switch name {
        case "linku": Model.linkuAnswers
        case "nova": Model.novaAnswers
        case "levelup": Model.levelupAnswers
        case "posture": Model.postureAnswers
        default: []
        }
        var seen = Set(answers.map(\.name))
        return answers + endpoints.compactMap(\.body).filter { seen.insert($0.name).inserted }
    }

    /// A model by name, case-insensitively.
    public func model(named name: String) -> Model? {
        models.first { $0.name.lowercased() == name.lowercased() }
    }
}
