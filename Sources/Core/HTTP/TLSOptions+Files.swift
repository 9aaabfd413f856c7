import Foundation
import NIOSSL

/// `--verify`, `--cert` and `--cert-key` made into NIOSSL's configuration,
/// with every file read and checked: one line in the user's terms for a
/// file that cannot be read, is not PEM, holds an encrypted key, or holds a
/// key that does not belong to the certificate. The explorer asks before a
/// line is sent (`problem`), so the line is refused with a caret; the
/// transport asks again as it sends (a file may change in between).
extension TLSOptions {
    struct FileProblem: Error, CustomStringConvertible {
        let description: String
    }

    /// Why these options cannot make a TLS connection, or nil.
    public var problem: String? {
        do {
            _ = try context()
            return nil
        } catch {
            return error.description
        }
    }

    /// The context a connection is made with.
    func context() throws(FileProblem) -> NIOSSLContext {
        let configuration = try configuration()
        do {
            return try NIOSSLContext(configuration: configuration)
        } catch {
            // BoringSSL checks that the key is the certificate's only here.
            let keyFile = key ?? certificate ?? ""
            if let certificate, "\(error)".contains("failedToLoad") {
                throw FileProblem(description: keyFile == certificate
                    ? "the key in \(certificate) does not belong to its certificate"
                    : "the key \(keyFile) does not belong to the certificate \(certificate)")
            }
            throw FileProblem(description: "the TLS settings cannot be used: \(error)")
        }
    }

    func configuration() throws(FileProblem) -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch verify {
        case .system: break
        case .none: configuration.certificateVerification = .none
        case let .authorities(path):
            let roots = try Self.read("CA", path) { try NIOSSLCertificate.fromPEMFile(path) }
            guard !roots.isEmpty else { throw FileProblem(description: "the CA file \(path) holds no certificate (PEM)") }
            configuration.trustRoots = .certificates(roots)
        }
        if let certificate {
            let chain = try Self.read("certificate", certificate) { try NIOSSLCertificate.fromPEMFile(certificate) }
            guard !chain.isEmpty else { throw FileProblem(description: "the certificate file \(certificate) holds no certificate (PEM)") }
            configuration.certificateChain = chain.map { .certificate($0) }
            let keyFile = key ?? certificate
            let privateKey: NIOSSLPrivateKey
            do {
                privateKey = try Self.read("key", keyFile) { try NIOSSLPrivateKey(file: keyFile, format: .pem) }
            } catch where key == nil && !Self.isEncrypted(keyFile) {
                throw FileProblem(description: "the certificate file \(certificate) holds no private key; give it with --cert-key FILE")
            }
            configuration.privateKey = .privateKey(privateKey)
        }
        return configuration
    }

    private static func read<T>(_ what: String, _ path: String, _ load: () throws -> T) throws(FileProblem) -> T {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), FileManager.default.isReadableFile(atPath: path) else {
            throw FileProblem(description: "cannot read the \(what) file \(path)")
        }
        guard !isDirectory.boolValue else { throw FileProblem(description: "the \(what) file \(path) is a directory") }
        do { return try load() } catch {
            if what == "key", isEncrypted(path) {
                throw FileProblem(description: "the key file \(path) is encrypted; explorer reads only a key without a passphrase "
                                  + "(openssl pkey -in \(path) -out key.pem writes one)")
            }
            throw FileProblem(description: "the \(what) file \(path) is not PEM, or holds no \(what)")
        }
    }

    /// A PEM key under a passphrase: PKCS#8's `ENCRYPTED PRIVATE KEY`, or
    /// the older `Proc-Type: 4,ENCRYPTED` header.
    private static func isEncrypted(_ path: String) -> Bool {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return false }
        return text.contains("ENCRYPTED")
    }
}
