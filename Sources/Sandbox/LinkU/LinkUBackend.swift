import Core
import Hummingbird
import HummingbirdWebSocket

/// LinkU (seed 000 appendix 1, seed 001's `APIEndpoints`): every REST
/// endpoint of the catalog except messaging, which lives in `LinkUChat`.
/// docs/sandbox-linku.md describes each endpoint, the state machines and the
/// choices the seeds leave open.
struct LinkUBackend: SandboxBackend {
    var profile: Profile { .linku }
    var errorStyle: ErrorStyle { .linku }

    func migrate(_ store: SandboxStore) async throws {
        try await LinkUSchema.create(store)
        try await LinkUChat.create(store)
    }

    func register(on router: CatalogRouter, state: SandboxState) {
        LinkUAuth.register(on: router, state: state)
        LinkUVerificationCodes.register(on: router, state: state)
        LinkUUsers.register(on: router, state: state)
        LinkUNotifications.register(on: router, state: state)
        LinkUTasks.register(on: router, state: state)
        LinkUTaskFlow.register(on: router, state: state)
        LinkUForum.register(on: router, state: state)
        LinkUForumReactions.register(on: router, state: state)
        LinkUFleaMarket.register(on: router, state: state)
        LinkUFleaMarketTrade.register(on: router, state: state)
        LinkUTaskExperts.register(on: router, state: state)
        LinkUActivities.register(on: router, state: state)
        LinkUBanners.register(on: router, state: state)
        LinkUUploads.register(on: router, state: state)
        LinkUChat.register(on: router, state: state)
    }

    func registerWebSocket(on router: Router<BasicWebSocketRequestContext>, state: SandboxState) {
        LinkUChat.registerWebSocket(on: router, state: state)
    }
}
