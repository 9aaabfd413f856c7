extension String {
    /// The text followed by spaces up to `width` characters, for a column;
    /// text as long or longer as it is. Foundation's `padding(toLength:withPad:startingAt:)`
    /// bridges through `NSString` (a few percent of a whole `-c` request,
    /// for the help text the command table builds) and cuts longer text.
    func padded(to width: Int) -> String {
        let missing = width - count
        return missing > 0 ? self + String(repeating: " ", count: missing) : self
    }
}
