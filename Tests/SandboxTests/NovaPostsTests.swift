import Core
import Foundation
import Testing
@testable import Sandbox

/// Nova's uploads and posts (seed 003 "Post API") over real sockets.
@Suite struct NovaPostsTests {
    @Test func anUploadedImageBecomesAPostWhoseImageLoads() async throws {
        try await withSandbox(nova) { server, http in
            let (access, _) = try await http.novaLogin(server)
            let slot = try await http.call(server, "POST", "/posts/upload-url", [.stringField(name: "content_type", value: "image/png")], token: access)
            #expect(slot.status == 200)
            #expect(slot.json?["expires_in"]?.intValue == 900)
            let url = try #require(slot.json?["upload_url"]?.stringValue)
            let key = try #require(slot.json?["file_key"]?.stringValue)
            #expect(url == "\(server.baseURL.absoluteString)/uploads/\(key)")
            let post = try await http.novaPost(server, token: access, caption: "hello")
            guard case let .object(members) = post else { Issue.record("not an object"); return }
            #expect(members.map(\.key) == ["id", "user_id", "image_url", "thumbnail_url", "caption", "like_count", "comment_count", "is_liked", "created_at", "user"])
            #expect(post["user_id"] == .string(NovaIDs.alice))
            #expect(post["like_count"]?.intValue == 0)
            let image = try await http.raw(server, "GET", String(try #require(post["image_url"]?.stringValue).dropFirst(server.baseURL.absoluteString.count)), body: [])
            #expect(image.status == 200)
            #expect(image.body == novaPNG)
            #expect(image.header("Content-Type") == "image/png")
            let read = try await http.call(server, "GET", "/posts/\(try #require(post["id"]?.stringValue))", token: access)
            #expect(read.json?["post"]?["caption"] == .string("hello"))
        }
    }

    @Test func uploadsSurviveARestart() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("nova-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (access, post): (String, JSONValue) = try await withSandbox({ nova(&$0); $0.databasePath = path }) { server, http in
            let (access, _) = try await http.novaLogin(server)
            return (access, try await http.novaPost(server, token: access, caption: "kept"))
        }
        try await withSandbox({ nova(&$0); $0.databasePath = path }) { server, http in
            let id = try #require(post["id"]?.stringValue)
            let read = try await http.call(server, "GET", "/posts/\(id)", token: access)
            #expect(read.json?["post"]?["caption"] == .string("kept"))
            let key = try #require(read.json?["post"]?["image_url"]?.stringValue?.split(separator: "/").last)
            #expect(try await http.raw(server, "GET", "/uploads/\(key)", body: []).body == novaPNG)
        }
    }

    @Test func onlyPNGAndJPEGUnder10MiBAreAccepted() async throws {
        try await withSandbox(nova) { server, http in
            let (access, _) = try await http.novaLogin(server)
            let gif = try await http.call(server, "POST", "/posts/upload-url", [.stringField(name: "content_type", value: "image/gif")], token: access)
            #expect(gif.status == 422)
            #expect(gif.json?["code"] == .string("INVALID_FORMAT"))
            let slot = try await http.call(server, "POST", "/posts/upload-url", token: access)
            let key = try #require(slot.json?["file_key"]?.stringValue)
            let text = try await http.raw(server, "PUT", "/uploads/\(key)", body: Array("not an image".utf8), contentType: "image/png")
            #expect(text.status == 415)
            #expect(text.json?["code"] == .string("INVALID_FORMAT"))
            var big = [UInt8](repeating: 0, count: 10 * 1024 * 1024 + 1)
            big.replaceSubrange(0..<3, with: [0xFF, 0xD8, 0xFF])
            let large = try await http.raw(server, "PUT", "/uploads/\(key)", body: big, contentType: "image/jpeg")
            #expect(large.status == 413)
            #expect(large.json?["code"] == .string("FILE_TOO_LARGE"))
            let jpeg = try await http.raw(server, "PUT", "/uploads/\(key)", body: Array(big.prefix(1024)), contentType: "image/jpeg")
            #expect(jpeg.status == 200)
            #expect(jpeg.json?["content_type"] == .string("image/jpeg"))
            let unknown = try await http.raw(server, "PUT", "/uploads/\(UUID().uuidString)", body: novaPNG)
            #expect(unknown.status == 404)
        }
    }

    @Test func uploadURLsExpire() async throws {
        let clock = ManualClock()
        try await withSandbox({ nova(&$0); $0.clock = clock.now; $0.accessTokenLifetime = 3600 }) { server, http in
            let (access, _) = try await http.novaLogin(server)
            let slot = try await http.call(server, "POST", "/posts/upload-url", token: access)
            let key = try #require(slot.json?["file_key"]?.stringValue)
            clock.advance(901)
            let late = try await http.raw(server, "PUT", "/uploads/\(key)", body: novaPNG)
            #expect(late.status == 403)
            #expect(late.json?["code"] == .string("UPLOAD_URL_EXPIRED"))
        }
    }

    @Test func postCreationChecksCaptionAndFileKey() async throws {
        try await withSandbox(nova) { server, http in
            let (access, _) = try await http.novaLogin(server)
            let (bobAccess, _) = try await http.novaLogin(server, "bob@example.com", "bob12345")
            let slot = try await http.call(server, "POST", "/posts/upload-url", token: access)
            let key = try #require(slot.json?["file_key"]?.stringValue)
            let empty = try await http.call(server, "POST", "/posts", [.stringField(name: "file_key", value: key)], token: access)
            #expect(empty.status == 422)
            #expect(empty.json?["details"]?["file_key"] == .string("nothing was uploaded yet; PUT the image to upload_url first"))
            _ = try await http.raw(server, "PUT", "/uploads/\(key)", body: novaPNG)
            let long = try await http.call(server, "POST", "/posts", [.stringField(name: "file_key", value: key), .stringField(name: "caption", value: String(repeating: "é", count: 2201))], token: access)
            #expect(long.status == 422)
            #expect(long.json?["code"] == .string("CAPTION_TOO_LONG"))
            let stolen = try await http.call(server, "POST", "/posts", [.stringField(name: "file_key", value: key)], token: bobAccess)
            #expect(stolen.status == 422)
            #expect(stolen.json?["details"]?["file_key"] == .string("unknown file_key; get one from POST /posts/upload-url"))
            // Upper case, as Swift's JSONEncoder writes a UUID, is the same key.
            let fine = try await http.call(server, "POST", "/posts", [.stringField(name: "file_key", value: key.uppercased()), .stringField(name: "caption", value: String(repeating: "é", count: 2200))], token: access)
            #expect(fine.status == 201)
            let reused = try await http.call(server, "POST", "/posts", [.stringField(name: "file_key", value: key)], token: access)
            #expect(reused.json?["details"]?["file_key"] == .string("already used by another post"))
            let replaced = try await http.raw(server, "PUT", "/uploads/\(key)", body: novaPNG)
            #expect(replaced.status == 409)
        }
    }

    @Test func onlyTheAuthorDeletesAPost() async throws {
        try await withSandbox(nova) { server, http in
            let (alice, _) = try await http.novaLogin(server)
            let (bob, _) = try await http.novaLogin(server, "bob@example.com", "bob12345")
            let denied = try await http.call(server, "DELETE", "/posts/\(NovaIDs.bobsRamen)", token: alice)
            #expect(denied.status == 403)
            #expect(denied.json?["code"] == .string("FORBIDDEN"))
            let deleted = try await http.call(server, "DELETE", "/posts/\(NovaIDs.bobsRamen)", token: bob)
            #expect(deleted.status == 204)
            let gone = try await http.call(server, "GET", "/posts/\(NovaIDs.bobsRamen)", token: alice)
            #expect(gone.status == 404)
            #expect(gone.json?["code"] == .string("POST_NOT_FOUND"))
            // Its notifications went with it: alice's like and comment on it.
            let notes = try await http.call(server, "GET", "/notifications", token: bob)
            guard case let .array(list)? = notes.json?["notifications"] else { Issue.record("no list"); return }
            #expect(!list.contains { $0["post_id"] == .string(NovaIDs.bobsRamen) })
            #expect(try await http.call(server, "GET", "/posts/not-a-uuid", token: alice).status == 404)
        }
    }

    @Test func likesAreIdempotentAndCountedPerCaller() async throws {
        try await withSandbox(nova) { server, http in
            let (alice, _) = try await http.novaLogin(server)
            let (bob, _) = try await http.novaLogin(server, "bob@example.com", "bob12345")
            let post = NovaIDs.bobsRamen   // alice already likes it (seed)
            let first = try await http.call(server, "POST", "/posts/\(post)/like", token: alice)
            #expect(first.json == .object([("liked", .bool(true)), ("like_count", .int(1))]))
            let bobLikes = try await http.call(server, "POST", "/posts/\(post)/like", token: bob)
            #expect(bobLikes.json?["like_count"]?.intValue == 2)
            #expect(try await http.call(server, "GET", "/posts/\(post)", token: alice).json?["post"]?["is_liked"] == .bool(true))
            let unlike = try await http.call(server, "DELETE", "/posts/\(post)/like", token: alice)
            #expect(unlike.json == .object([("liked", .bool(false)), ("like_count", .int(1))]))
            let twice = try await http.call(server, "DELETE", "/posts/\(post)/like", token: alice)
            #expect(twice.json?["like_count"]?.intValue == 1)
            let seen = try await http.call(server, "GET", "/posts/\(post)", token: alice).json?["post"]
            #expect(seen?["is_liked"] == .bool(false))
            #expect(seen?["like_count"]?.intValue == 1)
            #expect(try await http.call(server, "POST", "/posts/\(UUID().uuidString)/like", token: alice).status == 404)
        }
    }
}
