/// The four backends the sandbox serves, as profile files compiled into the
/// binary (`Profiles/BuiltIn/*.yaml`), read by the reader a user's file goes
/// through: a built-in profile can say nothing a user's file cannot.
enum BuiltInProfiles {
    static let files: [(name: String, text: [UInt8])] = [
        ("linku", PackageResources.linku_yaml), ("nova", PackageResources.nova_yaml),
        ("levelup", PackageResources.levelup_yaml), ("posture", PackageResources.posture_yaml),
    ]

    /// The profile `name` from its file; a file that does not read is a
    /// defect of this build, caught by the test suite, not a user's problem.
    static func load(_ name: String) -> Profile {
        guard let text = Profile.builtInFile(named: name) else { preconditionFailure("no built-in profile \(name)") }
        do {
            return try ProfileFile.parse(text, file: "built-in profile \(name).yaml").profile
        } catch {
            preconditionFailure("\(error)")
        }
    }
}
