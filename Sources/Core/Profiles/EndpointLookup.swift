import NIOConcurrencyHelpers

/// A catalog's endpoints by method and number of path segments, for the
/// lookups every request makes (its token, its drift, its answer's model):
/// a search through a few endpoints, not the whole catalog. Made on the
/// first lookup after the catalog changes (`Profile.endpoints` replaces
/// it), so a catalog built one endpoint at a time is not indexed each time.
final class EndpointLookup: Sendable {
    private struct Key: Hashable {
        let method: String
        let segments: Int
    }

    private let index = NIOLockedValueBox<[Key: [Int]]?>(nil)

    /// The positions in `endpoints` of those with this method and this many
    /// segments, in catalog order. `endpoints` must be the catalog this
    /// lookup belongs to.
    func candidates(method: String, segments: Int, in endpoints: [Endpoint]) -> [Int] {
        index.withLockedValue { index in
            if index == nil {
                var made: [Key: [Int]] = [:]
                for (position, endpoint) in endpoints.enumerated() {
                    made[Key(method: endpoint.method, segments: endpoint.segments.count), default: []].append(position)
                }
                index = made
            }
            return index?[Key(method: method, segments: segments)] ?? []
        }
    }
}
