import Foundation
import Testing
@testable import Core

/// The built-in profiles are written in YAML (`Sources/Core/Profiles/BuiltIn/*.yaml`,
/// what `profile init` copies) and read, at every start, from their JSON
/// twins beside them: the JSON reader takes a fraction of the YAML reader's
/// time (BENCHMARKS.md, "Built-in profiles read from JSON twins"). Each twin
/// must be exactly what the profile reader makes of its YAML file.
@Suite struct BuiltInProfileTwinTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources/Core/Profiles/BuiltIn").standardized

    /// `EXPLORER_WRITE_PROFILE_TWINS=1 swift test --filter BuiltInProfileTwinTests`
    /// rewrites the twins from the YAML files.
    @Test(arguments: Profile.builtInNames)
    func theJSONTwinIsWhatTheYAMLFileSays(_ name: String) throws {
        let yaml = try String(contentsOf: Self.folder.appendingPathComponent("\(name).yaml"), encoding: .utf8)
        let value = try ProfileDocument.parse(yaml, file: "\(name).yaml").root.value
        let expected = JSONPrinter.pretty(value) + "\n"
        let twin = Self.folder.appendingPathComponent("\(name).json")
        if ProcessInfo.processInfo.environment["EXPLORER_WRITE_PROFILE_TWINS"] == "1" {
            try expected.write(to: twin, atomically: true, encoding: .utf8)
        }
        let written = try String(contentsOf: twin, encoding: .utf8)
        #expect(written == expected,
                "Profiles/BuiltIn/\(name).json is stale: EXPLORER_WRITE_PROFILE_TWINS=1 swift test --filter BuiltInProfileTwinTests")
        // Read back, it is the same document, and it is what this build embeds.
        #expect(try JSONParser.parse(written) == value)
        #expect(BuiltInProfiles.twin(named: name).map { String(decoding: $0, as: UTF8.self) } == written)
    }
}
