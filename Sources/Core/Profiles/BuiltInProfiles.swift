/// The four backends the sandbox serves, as profile files compiled into the
/// binary (`Profiles/BuiltIn/*.yaml`), read by the reader a user's file goes
/// through: a built-in profile can say nothing a user's file cannot. The
/// YAML files are the source; a start reads their JSON twins.
enum BuiltInProfiles {
    static let files: [(name: String, text: [UInt8])] = [
        ("linku", PackageResources.linku_yaml), ("nova", PackageResources.nova_yaml),
        ("levelup", PackageResources.levelup_yaml), ("posture", PackageResources.posture_yaml),
    ]

    /// The profiles as JSON, generated from the YAML files and held to them
    /// by `BuiltInProfileTwinTests`: the YAML reader (Yams) took about 3 ms of
    /// every start with a built-in profile, the JSON reader a tenth of that.
    static func twin(named name: String) -> [UInt8]? {
        switch name {
        case "linku": PackageResources.linku_json
        case "nova": PackageResources.nova_json
        case "levelup": PackageResources.levelup_json
        case "posture": PackageResources.posture_json
        default: nil
        }
    }

    /// The profile `name` from its file; a file that does not read is a
    /// defect of this build, caught by the test suite, not a user's problem.
    static func load(_ name: String) -> Profile {
        guard let twin = twin(named: name) else { preconditionFailure("no built-in profile \(name)") }
        do {
            return try ProfileFile.parse(String(decoding: twin, as: UTF8.self), file: "built-in profile \(name).json").profile
        } catch {
            preconditionFailure("\(error)")
        }
    }
}
