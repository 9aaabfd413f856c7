import Core
import Foundation
import Testing
@testable import Sandbox

/// `POST /api/upload/image` and the avatar uploads: multipart only, image
/// types by their bytes, 5 MiB, and the stored image served back; the
/// banners' seeded images too.
@Suite struct LinkUUploadTests {
    @Test func anUploadedImageIsServedBackWithItsType() async throws {
        try await withSandbox { server, http in
            let alice = try await http.alice(server)
            let uploaded = try await http.upload(server, pngBytes, type: "application/octet-stream", token: alice)
            #expect(uploaded.status == 201)
            #expect(uploaded.json?["content_type"] == .string("image/png"))
            #expect(uploaded.json?["size"]?.intValue == pngBytes.count)
            let url = try #require(uploaded.json?["url"]?.stringValue)
            #expect(url.hasPrefix("\(server.baseURL.absoluteString)/uploads/") && url.hasSuffix(".png"))
            let fetched = try await http.fetch(url)
            #expect(fetched.status == 200)
            #expect(fetched.mediaType == "image/png")
            #expect(fetched.body == pngBytes)

            let gif = Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0]
            let asImage = try await http.upload(server, gif, field: "image", filename: "a.gif", type: "image/gif", token: alice)
            #expect(asImage.json?["content_type"] == .string("image/gif"))
            let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 16]
            #expect(try await http.upload(server, jpeg, filename: "a.jpg", type: "image/jpeg", token: alice).json?["content_type"] == .string("image/jpeg"))
            let webp = Array("RIFF".utf8) + [4, 0, 0, 0] + Array("WEBPVP8 ".utf8)
            #expect(try await http.upload(server, webp, filename: "a.webp", type: "image/webp", token: alice).json?["content_type"] == .string("image/webp"))
            expectError(try await http.fetch("\(server.baseURL.absoluteString)/uploads/nothing.png"), 404, "UPLOAD_NOT_FOUND")
        }
    }

    @Test func onlyImagesInMultipartAreAccepted() async throws {
        try await withSandbox { server, http in
            let alice = try await http.alice(server)
            let text = try await http.upload(server, Array("hello, not a png".utf8), type: "image/png", token: alice)
            expectError(text, 415, "UNSUPPORTED_MEDIA_TYPE")
            #expect(text.json?["details"]?["file"]?.stringValue?.contains("declared image/png") == true)
            let json = try await http.call(server, "POST", "/api/upload/image", [field("file", "x")], token: alice)
            expectError(json, 415, "UNSUPPORTED_MEDIA_TYPE")
            let wrongField = try await http.upload(server, pngBytes, field: "photo", token: alice)
            expectError(wrongField, 422, "VALIDATION_ERROR")
            #expect(wrongField.json?["details"]?["file"] != nil)
            let empty = try await http.upload(server, [], token: alice)
            #expect(empty.json?["details"]?["file"] == .string("the file is empty"))

            let url = server.baseURL.appendingPathComponent("api/upload/image")
            let auth = HTTPHeader(name: "Authorization", value: "Bearer \(alice)")
            let noBoundary = try await http.send(PreparedRequest(method: "POST", url: url,
                                                                 headers: [auth, HTTPHeader(name: "Content-Type", value: "multipart/form-data")], body: pngBytes))
            expectError(noBoundary, 400, "BAD_REQUEST")
            let truncated = try await http.send(PreparedRequest(method: "POST", url: url,
                                                                headers: [auth, HTTPHeader(name: "Content-Type", value: "multipart/form-data; boundary=xyz")],
                                                                body: Array("--xyz\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\n".utf8) + pngBytes))
            expectError(truncated, 400, "BAD_REQUEST")
            #expect(truncated.json?["message"] == .string("malformed multipart body: the multipart body has no closing boundary"))
            expectError(try await http.upload(server, pngBytes, token: nil), 401, "UNAUTHORIZED")
        }
    }

    @Test func fiveMiBIsTheLimit() async throws {
        try await withSandbox { server, http in
            let alice = try await http.alice(server)
            let limit = 5 * 1024 * 1024
            let largest = pngBytes + [UInt8](repeating: 0, count: limit - pngBytes.count)
            let fits = try await http.upload(server, largest, token: alice)
            #expect(fits.status == 201)
            #expect(fits.json?["size"]?.intValue == limit)
            let tooBig = try await http.upload(server, largest + [0], token: alice)
            expectError(tooBig, 413, "PAYLOAD_TOO_LARGE")
            #expect(tooBig.json?["details"]?["max_bytes"]?.intValue == limit)
            let wayTooBig = try await http.upload(server, largest + [UInt8](repeating: 0, count: limit), token: alice)
            expectError(wayTooBig, 413, "PAYLOAD_TOO_LARGE")
            // The connection is still usable after a refused upload.
            #expect(try await http.call(server, "GET", "/api/users/profile/me", token: alice).status == 200)
        }
    }

    @Test func avatarUploadsUpdateTheProfileOnBothPaths() async throws {
        try await withSandbox { server, http in
            let alice = try await http.alice(server)
            let bob = try await http.bob(server)
            for path in ["/api/users/avatar", "/api/users/profile/avatar"] {
                let updated = try await http.upload(server, pngBytes, to: path, token: alice)
                #expect(updated.status == 200)
                let avatar = try #require(updated.json?["avatar"]?.stringValue)
                #expect(try await http.fetch(avatar).body == pngBytes)
                #expect(try await http.call(server, "GET", "/api/users/profile/1", token: bob).json?["avatar"] == .string(avatar))
            }
            expectError(try await http.upload(server, Array("%PDF-1.7".utf8), to: "/api/users/avatar", token: alice), 415, "UNSUPPORTED_MEDIA_TYPE")
        }
    }

    @Test func bannersArePublicAndTheirImagesLoad() async throws {
        try await withSandbox { server, http in
            let banners = try await http.call(server, "GET", "/api/banners")
            #expect(banners.status == 200)
            #expect(banners.json?["total"]?.intValue == 2)
            let url = try #require(banners.json?["banners"]?[0]?["image_url"]?.stringValue)
            #expect(url == "\(server.baseURL.absoluteString)/uploads/banner-post-a-task.png")
            let image = try await http.fetch(url)
            #expect(image.status == 200)
            #expect(image.mediaType == "image/png")
            #expect(image.body == pngBytes)
        }
    }
}
