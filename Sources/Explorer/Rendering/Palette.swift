import Core

/// ANSI colours, or none. Chosen once from `--color` and `NO_COLOR`.
struct Palette: Sendable {
    let enabled: Bool

    static let plain = Palette(enabled: false)

    /// `--color always|never|auto`: auto colours a terminal unless NO_COLOR is set
    /// (https://no-color.org); an explicit flag wins over NO_COLOR.
    static func choose(_ mode: ColorMode, isTerminal: Bool, environment: [String: String]) -> Palette {
        switch mode {
        case .always: return Palette(enabled: true)
        case .never: return Palette(enabled: false)
        case .auto:
            let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
            // No TERM is no terminal that asked for colour, as git reads it.
            let dumb = (environment["TERM"] ?? "dumb") == "dumb"
            return Palette(enabled: isTerminal && !noColor && !dumb)
        }
    }

    /// The palette for this process's standard output, from `--color` (auto
    /// when not given); colour chosen for a terminal there is kept off a
    /// standard error that is not one (`2>err.log` got `^[[31merror:`).
    static func forStandardOutput(_ mode: ColorMode?, environment: [String: String] = Surroundings.current.environment) -> Palette {
        let palette = choose(mode ?? .auto, isTerminal: Surroundings.current.outputIsTerminal, environment: environment)
        Console.keepColourOffErrors(palette.enabled && (mode ?? .auto) == .auto && !Surroundings.current.errorIsTerminal)
        return palette
    }

    /// Ends every colour and attribute.
    static let reset = "\u{1B}[0m"

    private func wrap(_ code: String, _ text: String) -> String { enabled ? "\u{1B}[\(code)m\(text)\(Self.reset)" : text }
    func bold(_ s: String) -> String { wrap("1", s) }
    func dim(_ s: String) -> String { wrap("2", s) }
    func red(_ s: String) -> String { wrap("31", s) }
    func green(_ s: String) -> String { wrap("32", s) }
    func yellow(_ s: String) -> String { wrap("33", s) }
    func cyan(_ s: String) -> String { wrap("36", s) }

    var json: JSONStyle {
        guard enabled else { return .plain }
        let reset = "\u{1B}[0m"
        return JSONStyle(key: ("\u{1B}[34;1m", reset), string: ("\u{1B}[32m", reset), number: ("\u{1B}[36m", reset),
                         literal: ("\u{1B}[35m", reset), punctuation: ("", ""))
    }
}

enum ColorMode: String, CaseIterable, Sendable {
    case auto, always, never
}
