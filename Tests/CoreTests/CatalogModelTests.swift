import Core
import Testing

/// The catalogs' metadata holds together: every model an endpoint or a field
/// names exists in its profile, and query parameters are not repeated.
@Suite struct CatalogModelTests {
    static let profiles: [Profile] = [.linku, .nova, .levelup, .posture]

    @Test(arguments: profiles.map(\.name))
    func everyNamedModelExists(_ name: String) throws {
        let profile = try #require(Profile.builtIn[name])
        for endpoint in profile.endpoints {
            if let response = endpoint.response {
                #expect(profile.model(named: response) != nil, "\(endpoint.method) \(endpoint.path) answers unknown \(response)")
            }
            #expect(Set(endpoint.query).count == endpoint.query.count, "\(endpoint.path) repeats a query parameter")
        }
        for model in profile.models {
            for field in model.fields {
                for referenced in Self.modelNames(in: field.type) {
                    #expect(profile.model(named: referenced) != nil, "\(model.name).\(field.name) names unknown \(referenced)")
                }
            }
        }
    }

    static func modelNames(in type: FieldType) -> [String] {
        switch type {
        case let .model(name): [name]
        case let .array(element): modelNames(in: element)
        default: []
        }
    }

    @Test func seedModelsArePresent() {
        let expected: [String: [String]] = [
            "linku": ["User", "Task", "TaskListResponse", "FleaMarketItem", "Message", "Conversation", "LinkUError"],
            "nova": ["User", "Post", "Comment", "Notification", "FeedResponse", "UserStats", "AuthTokens", "ErrorResponse"],
            "levelup": ["LoginResponse", "User", "ErrorResponse"],
            "posture": ["PostureLog", "ErrorResponse"],
        ]
        for (name, models) in expected {
            for model in models { #expect(Profile.builtIn[name]?.model(named: model) != nil, "\(name) lacks \(model)") }
        }
    }

    @Test func bodiesAndQueriesAreFilled() throws {
        let create = try #require(Profile.linku.endpoints.first { $0.method == "POST" && $0.path == "/api/tasks" })
        #expect(create.body?.fields.first { $0.name == "title" }?.required == true)
        #expect(create.body?.fields.first { $0.name == "price" }?.type == .number)
        #expect(create.response == "Task")
        let list = try #require(Profile.linku.endpoints.first { $0.method == "GET" && $0.path == "/api/tasks" })
        #expect(list.query.contains("page_size") && list.query.contains("city"))
        #expect(Endpoint("GET", "/a/{id}/b/{other}", "x").pathParameters == ["id", "other"])
    }
}
