import Core
import Foundation
import Testing

/// What real servers do to a client, and what the transport makes of it:
/// an answer, or one line in the user's terms. Never a stopped process.
@Suite struct HostileServerTests {
    /// Answers a small request head 200 on a kept-alive connection; a head
    /// still unfinished after 1 KiB gets 431 at once, before the client has
    /// written it all, as servers with a head limit do.
    static func earlyAnswering(_ client: Int32) {
        var pending: [UInt8] = []
        while true {
            let chunk = HostileHTTPServer.read(client)
            if chunk.isEmpty { return }
            pending += chunk
            if let end = String(decoding: pending, as: UTF8.self).range(of: "\r\n\r\n"), pending.count < 1024 {
                _ = end
                pending = []
                HostileHTTPServer.write(client, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
            } else if pending.count >= 1024 {
                HostileHTTPServer.write(client, "HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                HostileHTTPServer.drain(client)
                return
            }
        }
    }

    /// Issue 11 #6: an answer that came before the request head was fully
    /// written stopped the process in async-http-client (a precondition of
    /// its idle-read timer). Here on a fresh and on a reused connection.
    @Test func anAnswerBeforeTheHeadIsWrittenIsAnAnswerOrOneLine() async throws {
        let server = try HostileHTTPServer(Self.earlyAnswering)
        defer { server.stop() }
        let transport = AsyncHTTPTransport()
        let builder = RequestBuilder(baseURL: server.url)
        let big = String(repeating: "a", count: 200_000)
        for _ in 0..<3 {
            let small = try await transport.send(builder.build(method: "GET", path: "/", items: []))
            #expect(small.status == 200)
            let request = try builder.build(method: "POST", path: "/", items: [.header(name: "X-Big", value: big), .stringField(name: "title", value: "x")])
            do {
                let answer = try await transport.send(request)
                #expect(answer.status == 431)
            } catch {
                #expect(!String(describing: error).isEmpty)
            }
        }
        await transport.shutdown()
    }

    /// The issue's own reproduction: the sandbox refuses a 90 KB head on a
    /// connection a login has used.
    @Test func theSandboxRefusingAHugeHeadLeavesTheClientWorking() async throws {
        try await withSandbox { server, http in
            let builder = RequestBuilder(baseURL: server.baseURL)
            let (token, _) = try await http.login(server)
            var request = try builder.build(method: "POST", path: "/api/tasks", items: [
                .stringField(name: "title", value: "x"), .header(name: "X-Big", value: String(repeating: "a", count: 90_000)),
            ])
            request.setHeader("Authorization", "Bearer \(token)")
            do {
                let answer = try await http.send(request)
                #expect(answer.status >= 400)
            } catch {
                #expect(!String(describing: error).isEmpty)
            }
            #expect(try await http.call(server, "GET", "/api/banners").status == 200)
        }
    }
}
