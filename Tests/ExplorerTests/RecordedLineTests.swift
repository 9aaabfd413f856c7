import Core
import Foundation
import Sandbox
import Testing
@testable import Explorer

/// A recording writes each command line as it was typed: a `{{NAME}}` the
/// replay will have stays a reference, whatever kind of command holds it.
/// (The `ws connect` URL and a login's email used to be written with the
/// session's values filled in, so a replay asked for this session's kernel.)
@Suite struct RecordedLineTests {
    /// Variables the header gives the replay, so every reference below is one it will have.
    static let variables = ["tid": "1", "city": "Leeds", "title": "hello", "email": "alice@example.com", "uid": "1", "peer": "2"]

    /// One line of each command kind that fills in variables.
    static let lines = [
        "login {{email}} alice123",
        "get /api/tasks/{{tid}}",
        "get /api/tasks city=={{city}} page_size==1",
        "post /api/tasks title={{title}} price:=25 city={{city}}",
        "put /api/tasks/{{tid}} title={{title}} --offline",
        "set copy={{city}}",
        "ws connect --retries 0 /ws/chat/{{uid}}",
        #"ws send {"type":"message","client_message_id":"t-1","receiver_id":{{peer}},"content":"{{title}}"}"#,
        "ws close",
        #"ws send {"type":"message","password":"pw5","receiver_id":{{peer}}}"#,
        "ws close",
        "ws connect --retries 0 /ws/chat/{{uid}}?token={{secret:access_token}}",
        "ws close",
    ]

    /// What each line is written as: the login's password and a socket
    /// JSON's secret member become placeholders; everything else is kept as typed.
    static func written(_ line: String) -> String {
        if line == "login {{email}} alice123" { return "login {{email}} {{secret:password}}" }
        return line.replacingOccurrences(of: #""password":"pw5""#, with: #""password":"{{secret:password}}""#)
    }

    @Test(arguments: lines) func aLineIsWrittenAsTyped(_ line: String) async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("typed-\(UUID().uuidString).transcript").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await withSandboxInterpreter { interpreter, server in
            let header = TranscriptHeader.make(profile: "linku", target: .sandbox,
                                               variables: Self.variables.sorted { $0.key < $1.key }.map { .init(name: $0.key, value: $0.value) })
            for (name, value) in Self.variables { _ = await interpreter.execute(.set(name: name, value: value)) }
            let recorder = try TranscriptRecorder(path: path, header: header, renderer: Renderer(palette: .plain, envelope: Profile.linku.errorEnvelope),
                                                  baseURL: server.baseURL.absoluteString, secrets: SecretScrubber(),
                                                  secretFields: SecretFields(Profile.linku.secretFields),
                                                  frames: interpreter.frameTap.subscribe(),
                                                  variables: { [interpreter] in interpreter.allVariables })
            // Logged in first, as the socket lines need; the login itself is not written.
            _ = await interpreter.execute(.login(email: "alice@example.com", password: "alice123"))
            if line.hasPrefix("ws send") {
                _ = await interpreter.execute(try interpreter.parser.parse("ws connect"))
            }
            // `{{secret:…}}` is filled in before the parser sees the line, as the session controller does.
            let run = line.replacingOccurrences(of: "{{secret:access_token}}", with: await interpreter.session.tokens?.accessToken ?? "")
            let command = try interpreter.parser.parse(run)
            try recorder.record(line: line.contains("{{secret:") ? line : run, command: command,
                                outcome: await interpreter.execute(command), forcedOffline: false)
            _ = await interpreter.execute(.ws(.close))
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("\n> \(Self.written(line))\n"), "\(text)")
    }
}
