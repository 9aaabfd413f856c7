import Core
import Foundation
import Testing
@testable import Explorer

/// Issue 6's benchmark, not a test: it runs only with EXPLORER_BENCH=1 and
/// prints figures (`EXPLORER_BENCH=1 swift test --filter SpecBenchmark`).
/// The document is generated, deterministically, with the shape of a real
/// API: 120 resources, each with list/create/get/put/patch/delete and two
/// actions (960 operations) plus 48 nested collections (1,056 in all), query
/// parameters and JSON bodies of 8 fields. In a debug build (the only one
/// this machine's budget allows) nearly all of the load time is OpenAPIKit's
/// Codable decoding of the document; dereferencing and resolving take ~0.1 s.
/// Peak RSS is the whole test process's, so it bounds the import from above.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["EXPLORER_BENCH"] != nil))
struct SpecBenchmark {
    static func document() -> String {
        var paths: [String] = []
        let body = #"{"content": {"application/json": {"schema": {"type": "object", "required": ["name"], "properties": {"#
            + (0..<8).map { #""field\#($0)": {"type": "\#($0 % 2 == 0 ? "string" : "integer")"}"# }.joined(separator: ", ") + "}}}}}"
        let ok = #""responses": {"200": {"description": "ok"}}"#
        let query = #""parameters": [{"name": "page", "in": "query", "schema": {"type": "integer"}}, {"name": "q", "in": "query", "schema": {"type": "string"}}]"#
        let id = #""parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}]"#
        for r in 0..<120 {
            let name = "/api/v2/resource\(r)"
            paths.append(#""\#(name)": {"get": {"summary": "List resource \#(r)", \#(query), \#(ok)}, "post": {"summary": "Create", "requestBody": \#(body), \#(ok)}}"#)
            paths.append(#""\#(name)/{id}": {\#(id), "get": {"summary": "One", \#(ok)}, "put": {"requestBody": \#(body), \#(ok)}, "patch": {"requestBody": \#(body), \#(ok)}, "delete": {\#(ok)}}"#)
            paths.append(#""\#(name)/{id}/archive": {\#(id), "post": {\#(ok)}}"#)
            paths.append(#""\#(name)/{id}/restore": {\#(id), "post": {\#(ok)}}"#)
            if r % 5 == 0 {
                paths.append(#""\#(name)/{id}/children": {\#(id), "get": {\#(ok)}, "post": {"requestBody": \#(body), \#(ok)}}"#)
            }
        }
        return #"{"openapi": "3.1.0", "info": {"title": "bench", "version": "1"}, "paths": {"# + paths.joined(separator: ",\n") + "}}"
    }

    static func maxRSSMiB() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024
    }

    @Test func loadAndTabLatency() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("explorer-bench-spec.json").path
        try Self.document().write(toFile: file, atomically: true, encoding: .utf8)
        let before = Self.maxRSSMiB()
        let clock = ContinuousClock()
        var spec: ImportedSpec?
        let load = try clock.measure { spec = try SpecLoader.load(file) }
        let loaded = try #require(spec)
        var profile = Profile.linku
        profile.endpoints = loaded.endpoints
        let state = CompletionState(profile: profile, variables: ["base_url", "profile", "resource_id"], lastBody: nil)
        let stems = ["get /api/v2/res", "post /api/v2/resource1", "get /api/v2/resource7/3/", "patch /api/v2/resource42/1 fi",
                     "get /api/v2/resource9 pa", "post /api/v2/resource100 field3", "delete /api/v2/resource5/", "/api/v2/resource11"]
        let lines = (0..<1000).map { stems[$0 % stems.count] }
        var samples: [Duration] = []
        for line in lines { samples.append(clock.measure { _ = Completer.complete(line, state: state) }) }
        samples.sort()
        print("""
        spec benchmark: \(loaded.endpoints.count) operations
          load: \(load)
          TAB p50: \(samples[samples.count / 2]), p99: \(samples[samples.count * 99 / 100])
          peak RSS: \(String(format: "%.1f", Self.maxRSSMiB())) MiB (\(String(format: "%.1f", before)) MiB before loading)
        """)
        #expect(loaded.endpoints.count >= 1000)
    }
}
