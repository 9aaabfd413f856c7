import Core
import Hummingbird

/// Home-page banners (public, 001). Their images are seeded uploads, so the
/// URLs work against this sandbox whatever port it runs on.
enum LinkUBanners {
    static func register(on router: CatalogRouter, state: SandboxState) {
        router.get("/api/banners") { request, _ in
            _ = try await state.optionalLinkuUser(request)
            let base = baseURL(of: request)
            var query = ListQuery(request)
            return try await query.respond(state, key: "banners", select: "*", from: "banners", order: "sort_order, id") { row in
                .object([
                    ("id", .int(row.int("id"))),
                    ("title", .string(row.text("title"))),
                    ("image_url", .string(LinkUUploads.url(base, row.text("image")))),
                    ("link_url", .string(row.text("link_url"))),
                    ("sort_order", .int(row.int("sort_order"))),
                ])
            }
        }
    }
}
