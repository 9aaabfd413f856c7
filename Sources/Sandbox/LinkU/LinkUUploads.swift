import Core
import Foundation
import Hummingbird
import NIOCore

/// Image uploads (`POST /api/upload/image`, and the avatar endpoints):
/// multipart/form-data with the image in a part named `file` (or `image`),
/// PNG, JPEG, GIF or WebP recognised by their first bytes (a declared type is
/// not trusted), at most 5 MiB. Images are kept in SQLite and served at
/// `GET /uploads/{name}` without a token, as an `<img>` would fetch them.
enum LinkUUploads {
    static let maxImageBytes = 5 * 1024 * 1024
    /// Room for the multipart framing and a few text fields around the image.
    static let maxBodyBytes = maxImageBytes + 64 * 1024

    static func register(on router: CatalogRouter, state: SandboxState) {
        router.post("/api/upload/image") { request, _ in
            let userID = try Caller.number()
            let image = try await store(request, owner: userID, state)
            return JSONResponse.make(.created, .object([
                ("url", .string(url(baseURL(of: request), image.name))),
                ("content_type", .string(image.type)),
                ("size", .int(image.size)),
            ]))
        }
        // 000 and 001 name the avatar upload differently; both answer the updated profile.
        for path in ["/api/users/avatar", "/api/users/profile/avatar"] {
            router.post(path) { request, _ in
                let userID = try Caller.number()
                let image = try await store(request, owner: userID, state)
                try state.store.query("UPDATE users SET avatar = ? WHERE id = ?",
                                            [.text(url(baseURL(of: request), image.name)), .integer(userID)])
                return JSONResponse.make(.ok, try await LinkUUsers.profile(userID, state))
            }
        }
        router.get("/uploads/{name}") { _, context in
            let name = context.parameters.get("name") ?? ""
            guard let row = try state.store.query("SELECT content_type, data FROM uploads WHERE name = ?", [.text(name)]).first,
                  let bytes = row.column("data")?.blob else {
                throw APIFailure.notFound("no uploaded file named \(name)", code: "UPLOAD_NOT_FOUND")
            }
            return Response(status: .ok, headers: [
                .contentType: row.text("content_type"),
                .cacheControl: "public, max-age=31536000, immutable",
            ], body: .init(byteBuffer: bytes))
        }
    }

    static func url(_ base: String, _ name: String) -> String { "\(base)/uploads/\(name)" }

    /// Image types by signature: extension and Content-Type to serve.
    static func sniff(_ bytes: ArraySlice<UInt8>) -> (ext: String, type: String)? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return ("png", "image/png") }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return ("jpg", "image/jpeg") }
        if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) { return ("gif", "image/gif") }
        if bytes.starts(with: Array("RIFF".utf8)), bytes.dropFirst(8).starts(with: Array("WEBP".utf8)) { return ("webp", "image/webp") }
        return nil
    }

    static func tooLarge() -> APIFailure {
        APIFailure(status: .contentTooLarge, code: "PAYLOAD_TOO_LARGE", message: "the image is larger than 5 MiB",
                   details: [("file", .string("at most \(maxImageBytes) bytes")), ("max_bytes", .int(maxImageBytes))])
    }

    /// Reads the multipart body, checks the image and stores it under a random name.
    static func store(_ request: Request, owner: Int, _ state: SandboxState) async throws -> (name: String, type: String, size: Int) {
        let boundary: String?
        do { boundary = try MultipartForm.boundary(contentType: request.headers[.contentType] ?? "") } catch {
            throw APIFailure.badRequest(error.reason)
        }
        guard let boundary else {
            throw APIFailure(status: .unsupportedMediaType, code: "UNSUPPORTED_MEDIA_TYPE",
                             message: "send multipart/form-data with the image in a part named file")
        }
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > maxBodyBytes { throw tooLarge() }
        let buffer: ByteBuffer
        do { buffer = try await request.body.collect(upTo: maxBodyBytes) } catch is NIOTooManyBytesError { throw tooLarge() }
        let form: MultipartForm
        do { form = try MultipartForm(Array(buffer.readableBytesView), boundary: boundary) } catch {
            throw APIFailure.badRequest("malformed multipart body: \(error.reason)")
        }
        guard let part = form.part(named: "file") ?? form.part(named: "image") else {
            throw APIFailure.invalid("file", "required: a multipart part named file (or image) holding the image")
        }
        guard !part.data.isEmpty else { throw APIFailure.invalid("file", "the file is empty") }
        guard part.data.count <= maxImageBytes else { throw tooLarge() }
        guard let kind = sniff(part.data) else {
            throw APIFailure(status: .unsupportedMediaType, code: "UNSUPPORTED_MEDIA_TYPE", message: "only PNG, JPEG, GIF and WebP images are accepted",
                             details: [("file", .string("not a PNG, JPEG, GIF or WebP image (declared \(part.contentType ?? "no type"))"))])
        }
        let name = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined() + "." + kind.ext
        try state.store.query("INSERT INTO uploads (name, owner_id, content_type, size, data, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                                    [.text(name), .integer(owner), .text(kind.type), .integer(part.data.count),
                                     .blob(ByteBuffer(bytes: part.data)), .text(state.timestamp)])
        return (name, kind.type, part.data.count)
    }
}
