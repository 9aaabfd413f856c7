import Testing
@testable import Core

/// Which member and header names the redactor treats as secrets, and what it
/// takes for a JWT: asked of every string in every answer shown.
struct SecretNameTests {
    @Test(arguments: [
        ("password", true), ("new_password", true), ("Password", true), ("PASSWD", true),
        ("client_secret", true), ("X-Api-Key", true), ("apikey", true), ("api_key_id", true),
        ("Authorization", true), ("cookie", true), ("Proxy-Authorization", true),
        ("access_token", true), ("refreshToken", true), ("token", true), ("accessTOKEN", true),
        ("token_type", false), ("title", false), ("tokens", false), ("pass", false), ("", false), ("ток", false),
    ])
    func secretNames(name: String, secret: Bool) {
        #expect(Redactor.isSecretName(name) == secret)
    }

    @Test(arguments: [
        ("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln", true),
        ("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.", true),
        ("eyJ.abc.def", false),                 // the payload is too short
        ("eyJhbGci.eyJzdWIi", false),            // two parts
        ("eyJhbGci.eyJz dWIi.c2ln", false),      // a space
        ("abc.eyJzdWIiOiIxIn0.c2ln", false),     // no JSON header
        ("Zürich", false),
    ])
    func jwtShapes(text: String, jwt: Bool) {
        #expect(Redactor.looksLikeJWT(text) == jwt)
    }
}
