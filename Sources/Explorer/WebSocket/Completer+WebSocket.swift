/// TAB after `ws`: the subcommands, then `ws connect`'s flags.
extension Completer {
    static func webSocket(_ word: String, previousWords: [String], start: Int) -> Completion {
        if previousWords.count == 1 {
            let words = WebSocketAction.subcommands.filter { $0.hasPrefix(word.lowercased()) }
            return Completion(start: start, candidates: words.map { .init(text: $0, isFinal: true, hint: nil) })
        }
        // Flags of `ws connect`, each once; none where a flag's value goes.
        guard previousWords[1].lowercased() == "connect", word.isEmpty || word.hasPrefix("-"),
              let last = previousWords.last, !ConnectSettings.flags.contains(last) else {
            return Completion(start: start, candidates: [])
        }
        let hints = ["--retries": "N reconnect tries (0: never)", "--backoff": "S seconds before the first try, doubling",
                     "--heartbeat": "S seconds between pings (0: none)"]
        let flags = ConnectSettings.flags.filter { $0.hasPrefix(word) && !previousWords.contains($0) }
        return Completion(start: start, candidates: flags.map { .init(text: $0, isFinal: true, hint: hints[$0]) })
    }
}
