import Foundation
import Testing
@testable import Core

/// What a session keeps of a login's answer (and `tokens.json` with it).
@Suite struct LoginTokensTests {
    /// A backend that echoed the password in its user, or handed out an
    /// `api_secret` there, had them written to tokens.json in clear: the
    /// user is kept for its name and id, its secret members hidden.
    @Test func theUserKeptHasItsSecretMembersHidden() throws {
        let auth = try #require(Profile.linku.auth)
        let body = try JSONParser.parse(#"""
        {"access_token": "a.b.c", "refresh_token": "r", "user": {"id": 1, "username": "alice", "echo_password": "LoginPw42", "api_secret": "UsrSecret777"}}
        """#)
        let tokens = try #require(AuthSession.tokens(in: body, auth: auth, needsUser: true))
        let kept = try #require(tokens.userJSON)
        #expect(!kept.contains("LoginPw42") && !kept.contains("UsrSecret777"), "\(kept)")
        #expect(tokens.user?["username"] == .string("alice") && tokens.user?["id"] == .int(1))
    }
}
