import Core
import Foundation
import Hummingbird
import NIOCore

/// 003 `POST /posts/upload-url` → `{upload_url, file_key, expires_in}`, and
/// the upload URL itself. Like a presigned storage URL, `PUT /uploads/{key}`
/// needs no Authorization: the unguessable key is the permission, and it lapses
/// after `expires_in`. `GET /uploads/{key}` serves the image for `image_url`.
enum NovaUploads {
    static let maxBytes = 10 * 1024 * 1024
    static let lifetime = 900.0
    static let types = Profile.nova.values(of: "ImageType")

    static func register(on router: CatalogRouter, state: SandboxState) {
        router.post("/posts/upload-url") { request, _ in try await uploadURL(request, state) }
        router.put("/uploads/{key}") { request, context in try await put(request, key: context.parameters.get("key"), state) }
        router.get("/uploads/{key}") { _, context in
            guard let key = NovaID.normalize(context.parameters.get("key")),
                  let row = try state.store.query("SELECT content_type, bytes FROM uploads WHERE file_key = ? AND bytes IS NOT NULL",
                                                        [.text(key)]).first,
                  let bytes = row.column("bytes")?.blob else {
                throw APIFailure.notFound("no image at this key", code: "FILE_NOT_FOUND")
            }
            return Response(status: .ok, headers: [.contentType: row.text("content_type")], body: .init(byteBuffer: bytes))
        }
    }

    /// The body may be empty; 003 sends `{content_type}`, which must then be JPEG or PNG.
    static func uploadURL(_ request: Request, _ state: SandboxState) async throws -> Response {
        let userID = try Caller.user()
        let buffer = try await request.body.collect(upTo: 1 << 20)
        if buffer.readableBytes > 0 {
            guard let body = try? JSONParser.parse(Array(buffer.readableBytesView)), case .object = body else {
                throw APIFailure.badRequest("expected a JSON object body such as {\"content_type\": \"image/jpeg\"}")
            }
            var fields = BodyFields(body)
            if let type = fields.text("content_type"), !types.contains(type.lowercased()) {
                throw APIFailure(status: .unprocessableContent, code: "INVALID_FORMAT", message: "only JPEG and PNG images are accepted",
                                 details: [("content_type", .string("must be image/jpeg or image/png"))])
            }
            try fields.check()
        }
        let key = NovaID.new()
        try state.store.query("INSERT INTO uploads (file_key, user_id, expires_at, created_at) VALUES (?, ?, ?, ?)",
                                    [.text(key), .text(userID), .float(state.now + lifetime), .float(state.now)])
        return JSONResponse.make(.ok, .object([
            ("upload_url", .string("\(NovaJSON.base(request))/uploads/\(key)")),
            ("file_key", .string(key)),
            ("expires_in", jsonNumber(lifetime)),
        ]))
    }

    static func put(_ request: Request, key raw: String?, _ state: SandboxState) async throws -> Response {
        guard let key = NovaID.normalize(raw),
              let row = try state.store.query("SELECT expires_at FROM uploads WHERE file_key = ?", [.text(key)]).first else {
            throw APIFailure.notFound("no upload URL with this key; get one from POST /posts/upload-url", code: "UPLOAD_NOT_FOUND")
        }
        if try state.store.query("SELECT 1 FROM posts WHERE file_key = ?", [.text(key)]).first != nil {
            throw APIFailure(status: .conflict, code: "UPLOAD_ALREADY_USED", message: "a post already uses this file; get a new upload URL")
        }
        guard row.double("expires_at") > state.now else {
            throw APIFailure(status: .forbidden, code: "UPLOAD_URL_EXPIRED", message: "this upload URL expired; get a new one")
        }
        let tooLarge = APIFailure(status: .contentTooLarge, code: "FILE_TOO_LARGE", message: "the image is larger than 10 MiB")
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maxBytes { throw tooLarge }
        let bytes: ByteBuffer
        do {
            bytes = try await request.body.collect(upTo: maxBytes)
        } catch is NIOTooManyBytesError {
            throw tooLarge
        }
        guard let type = imageType(bytes.readableBytesView) else {
            throw APIFailure(status: .unsupportedMediaType, code: "INVALID_FORMAT", message: "not a JPEG or PNG image (judged by its first bytes)")
        }
        try state.store.query("UPDATE uploads SET content_type = ?, bytes = ? WHERE file_key = ?",
                                    [.text(type), .blob(bytes), .text(key)])
        return JSONResponse.make(.ok, .object([
            ("file_key", .string(key)), ("content_type", .string(type)), ("size", .int(bytes.readableBytes)),
        ]))
    }

    /// The type by magic bytes; the Content-Type header is not trusted.
    static func imageType(_ bytes: ByteBufferView) -> String? {
        let head = Array(bytes.prefix(8))
        if head == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] { return "image/png" }
        if head.count >= 3, head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF { return "image/jpeg" }
        return nil
    }
}
