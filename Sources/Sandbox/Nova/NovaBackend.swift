import Core
import Hummingbird

/// Nova (seed 003, "API 端点定义" and its Codable models): auth with email
/// verification, feed and explore, posts with image upload, likes, comments,
/// users, follows and notifications. docs/sandbox-nova.md has every choice
/// the seed leaves open.
struct NovaBackend: SandboxBackend {
    var profile: Profile { .nova }
    var errorStyle: ErrorStyle { .codeMessage }

    func migrate(_ store: SandboxStore) async throws {
        try await NovaSchema.create(store)
        try await NovaSeed.insert(store)
    }

    func register(on router: CatalogRouter, state: SandboxState) {
        NovaAuth.register(on: router, state: state)
        NovaVerification.register(on: router, state: state)
        NovaUploads.register(on: router, state: state)
        NovaPosts.register(on: router, state: state)
        NovaComments.register(on: router, state: state)
        NovaFeed.register(on: router, state: state)
        NovaUsers.register(on: router, state: state)
        NovaFollows.register(on: router, state: state)
        NovaNotifications.register(on: router, state: state)
    }
}
