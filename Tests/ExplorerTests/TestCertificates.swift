import Foundation

/// A self-signed certificate and its key, made with openssl once per test
/// run in the tests' scratch folder, removed when the run ends: the TLS
/// flags read and check their files (`TLSOptions.problem`), so tests need real ones.
enum TestCertificates {
    struct Files {
        let certificate: String
        let key: String
        /// The certificate and its key in one file, as `--cert` alone takes it.
        let combined: String
    }

    static let files: Files = {
        let folder = (try? Scratch.folder("certificates")) ?? FileManager.default.temporaryDirectory
        let certificate = folder.appendingPathComponent("cert.pem").path
        let key = folder.appendingPathComponent("key.pem").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                             "-keyout", key, "-out", certificate, "-days", "1", "-subj", "/CN=localhost"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try? process.run()
        process.waitUntilExit()
        let combined = folder.appendingPathComponent("combined.pem").path
        let both = ((try? String(contentsOfFile: certificate, encoding: .utf8)) ?? "") + ((try? String(contentsOfFile: key, encoding: .utf8)) ?? "")
        try? both.write(toFile: combined, atomically: true, encoding: .utf8)
        return Files(certificate: certificate, key: key, combined: combined)
    }()
}
