import Core
import Foundation
import Sandbox
import Testing
@testable import Explorer

/// The shared Codable models decode what the sandboxes answer, the way an
/// app built on the seeds would, and fail on what drift reports.
@Suite struct SharedModelTests {
    func answers(_ profile: String, _ lines: [String]) async throws -> [ReceivedResponse] {
        try await withLiveSession(profile: try #require(Profile.builtIn[profile])) { live in
            let interpreter = live.interpreter
            var responses: [ReceivedResponse] = []
            for line in lines {
                if case let .exchange(exchange, _, _) = await interpreter.execute(try interpreter.parser.parse(line)) {
                    responses.append(exchange.response)
                }
            }
            return responses
        }
    }

    @Test func linkuAnswersDecode() async throws {
        let r = try await answers("linku", ["login alice@example.com alice123", "get /api/tasks", "get /api/flea-market/items",
                                            "get /api/users/conversations", "get /api/users/profile/me", "get /api/tasks/999999"])
        try #require(r.count == 6)
        let tasks = try ModelDecoding.decode(LinkU.TaskListResponse.self, from: r[1].body)
        #expect(!tasks.tasks.isEmpty)
        _ = try ModelDecoding.decode(FleaMarketItemPage.self, from: r[2].body)
        _ = try ModelDecoding.decode(ConversationPage.self, from: r[3].body)
        #expect(try ModelDecoding.decode(LinkU.User.self, from: r[4].body).username == "alice")
        #expect(try ModelDecoding.decode(LinkUErrorBody.self, from: r[5].body).errorCode == "TASK_NOT_FOUND")
    }

    /// Issue 11 #16: `details` was `[String: String]`, so the sandbox's 429
    /// (a number), 409 (a list) and 413 (a number) failed to decode; the test
    /// above only decoded a 404, which has no details.
    @Test func errorDetailsOfAnyShapeDecode() async throws {
        let r = try await answers("linku", ["post /api/secure-auth/send-verification-code email=carol@example.com",
                                            "post /api/secure-auth/send-verification-code email=carol@example.com"])
        try #require(r.count == 2 && r[1].status == 429)
        let limited = try ModelDecoding.decode(LinkUErrorBody.self, from: r[1].body)
        #expect(limited.errorCode == "TOO_MANY_REQUESTS")
        #expect(limited.details?["retryAfter"]?.intValue ?? 0 > 0, "keys come through the decoder's snake_case strategy")
        let conflict = #"{"error":true,"message":"cannot accept","error_code":"INVALID_TASK_STATE","status_code":409,"details":{"status":"completed","allowed_from":["open","taken"]}}"#
        #expect(try ModelDecoding.decode(LinkUErrorBody.self, from: Array(conflict.utf8)).details
            == .object([("allowedFrom", .array([.string("open"), .string("taken")])), ("status", .string("completed"))]))
        let tooLarge = #"{"code":"FILE_TOO_LARGE","message":"the image is larger than 10 MiB","details":{"max_bytes":10485760,"ratio":1.5,"ok":false,"none":null}}"#
        #expect(try ModelDecoding.decode(CodeMessageErrorBody.self, from: Array(tooLarge.utf8)).details
            == .object([("maxBytes", .number("10485760")), ("none", .null), ("ok", .bool(false)), ("ratio", .number("1.5"))]))
    }

    struct FleaMarketItemPage: Decodable { var items: [LinkU.FleaMarketItem] }
    struct ConversationPage: Decodable { var conversations: [LinkU.Conversation] }

    @Test func novaAnswersDecode() async throws {
        let r = try await answers("nova", ["login alice@example.com alice123", "get /feed", "get /notifications", "get /users/bob", "get /posts/nope"])
        try #require(r.count == 5)
        #expect(try ModelDecoding.decode(NovaAuth.self, from: r[0].body).tokens.tokenType.lowercased() == "bearer")
        #expect(try !ModelDecoding.decode(Nova.FeedResponse.self, from: r[1].body).posts.isEmpty)
        _ = try ModelDecoding.decode(NovaNotifications.self, from: r[2].body)
        #expect(try ModelDecoding.decode(NovaProfile.self, from: r[3].body).user.username == "bob")
        _ = try ModelDecoding.decode(CodeMessageErrorBody.self, from: r[4].body)
    }

    struct NovaAuth: Decodable { var user: Nova.User; var tokens: Nova.AuthTokens }
    struct NovaNotifications: Decodable { var notifications: [Nova.Notification] }
    struct NovaProfile: Decodable { var user: Nova.User; var stats: Nova.UserStats }

    @Test func levelUpAndPostureAnswersDecode() async throws {
        let levelup = try await answers("levelup", ["login demo@levelupsolo.net demo1234"])
        #expect(try ModelDecoding.decode(LevelUp.LoginResponse.self, from: try #require(levelup.first).body).user.email == "demo@levelupsolo.net")
        let posture = try await answers("posture", ["login alice@example.com alice123", "get /api/v1/postures/logs"])
        try #require(posture.count == 2)
        _ = try ModelDecoding.decode(PostureLogs.self, from: posture[1].body)
    }

    struct PostureLogs: Decodable { var logs: [PostureLog] }

    @Test func anUnknownEnumValueFailsCodableAndIsOneDriftLine() throws {
        let body = #"{"id":1,"conversation_id":1,"sender_id":1,"receiver_id":2,"content":"x","type":"sticker","is_read":false,"created_at":"2025-01-01T00:00:00Z"}"#
        #expect(throws: DecodingError.self) { try ModelDecoding.decode(LinkU.Message.self, from: Array(body.utf8)) }
        let drift = Drift.check(try JSONParser.parse(body), against: "Message", in: Profile.linku.models).map(\.description)
        #expect(drift == [".type: unknown MessageType value \"sticker\""])
    }
}
