import Foundation

/// What the process was started with and into: its environment and whether
/// its standard input and output are terminals. Read once, here, when first
/// asked; everything else takes these values (as a default it can be given
/// another for, in tests), so no code asks the process again.
struct Surroundings: Sendable {
    var environment: [String: String]
    /// Standard input is a terminal: a REPL can run, a secret can be asked for without echo.
    var inputIsTerminal: Bool
    /// Standard output is a terminal: colour by default, JSON indented for a person.
    var outputIsTerminal: Bool
    /// Standard error is a terminal: colour there too.
    var errorIsTerminal = true

    /// Standard output's terminal width in columns, asked now (a terminal
    /// may be resized); nil when it is not a terminal.
    static func terminalColumns(of descriptor: Int32 = 1) -> Int? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    static let current = Surroundings(environment: ProcessInfo.processInfo.environment,
                                      inputIsTerminal: isatty(0) == 1, outputIsTerminal: isatty(1) == 1, errorIsTerminal: isatty(2) == 1)
}
