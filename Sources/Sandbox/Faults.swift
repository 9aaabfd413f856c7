import Foundation
import Core

/// The fault switches' values, all off by default: the `faults` field group of
/// `SandboxConfiguration`, and what `GET /__sandbox/faults` shows (with the
/// access-token lifetime). docs/sandbox-faults.md describes each one.
public struct FaultSettings: Sendable, Equatable {
    /// Milliseconds added before every HTTP response (`/__sandbox/*` exempt).
    public var latencyMilliseconds = 0
    /// Share (0…1) of HTTP requests answered 500 or 503 in the backend's envelope.
    public var errorRate = 0.0
    /// Share (0…1) of HTTP responses cut mid-body: the headers and half the
    /// body are sent, then the connection is closed.
    public var cutBodyRate = 0.0
    /// Each WebSocket connection is dropped (closed without a close frame)
    /// once this many data frames have passed over it; 0 never drops.
    public var webSocketDropAfterFrames = 0
    /// Seed of the random draws behind the two shares; nil draws from the system.
    public var seed: UInt64?

    public init() {}

    static let latencyRange = 0...60_000
    static let dropRange = 0...1_000_000

    /// What is wrong with these values, by admin key; empty when they are usable.
    public func problems() -> [(key: String, message: String)] {
        var problems: [(key: String, message: String)] = []
        if !Self.latencyRange.contains(latencyMilliseconds) {
            problems.append(("latency_ms", "must be an integer from 0 to \(Self.latencyRange.upperBound)"))
        }
        if !(0...1).contains(errorRate) { problems.append(("error_rate", "must be a number from 0 to 1")) }
        if !(0...1).contains(cutBodyRate) { problems.append(("cut_body_rate", "must be a number from 0 to 1")) }
        if !Self.dropRange.contains(webSocketDropAfterFrames) {
            problems.append(("ws_drop_after", "must be an integer from 0 to \(Self.dropRange.upperBound)"))
        }
        return problems
    }
}

/// The fault switches in force, changeable while the sandbox runs (the admin
/// endpoint), read by the fault middleware and by every open WebSocket.
/// Lock-protected rather than an actor: NIO handlers and hot paths read it
/// synchronously.
final class Faults: @unchecked Sendable {
    private let lock = NSLock()
    private var settings: FaultSettings
    private var tokenLifetime: Double
    private var generator: any RandomNumberGenerator
    private let initial: (settings: FaultSettings, tokenLifetime: Double)

    /// `generator` overrides the seed (tests inject their own).
    init(_ settings: FaultSettings, accessTokenLifetime: Double, generator: (any RandomNumberGenerator)? = nil) {
        self.settings = settings
        self.tokenLifetime = accessTokenLifetime
        self.generator = generator ?? Self.generator(seed: settings.seed)
        self.initial = (settings, accessTokenLifetime)
    }

    static func generator(seed: UInt64?) -> any RandomNumberGenerator {
        seed.map { SplitMix64(seed: $0) } ?? SystemRandomNumberGenerator()
    }

    var current: FaultSettings { lock.withLock { settings } }

    /// Seconds an access token issued now lives.
    var accessTokenLifetime: Double { lock.withLock { tokenLifetime } }

    /// Changes some switches at once. When `reseed` is set the draws restart
    /// from the (new) seed, so a test can replay the same sequence.
    func update(reseed: Bool, _ change: (inout FaultSettings, inout Double) -> Void) {
        lock.withLock {
            change(&settings, &tokenLifetime)
            if reseed { generator = Self.generator(seed: settings.seed) }
        }
    }

    /// Back to what the sandbox started with.
    func reset() {
        lock.withLock {
            (settings, tokenLifetime) = initial
            generator = Self.generator(seed: settings.seed)
        }
    }

    enum HTTPFault: Equatable {
        case error(status: Int)
        case cutBody
    }

    /// What to do to the next HTTP request. A share of 0 or 1 draws nothing,
    /// so switching one fault on does not shift the other's sequence.
    func nextHTTPFault() -> HTTPFault? {
        lock.withLock {
            if roll(settings.errorRate) {
                return .error(status: draw() < 0.5 ? 500 : 503)
            }
            if roll(settings.cutBodyRate) { return .cutBody }
            return nil
        }
    }

    private func roll(_ rate: Double) -> Bool {
        if rate <= 0 { return false }
        if rate >= 1 { return true }
        return draw() < rate
    }

    /// A uniform double in [0, 1).
    private func draw() -> Double {
        Double(generator.next() >> 11) * 0x1p-53
    }
}
