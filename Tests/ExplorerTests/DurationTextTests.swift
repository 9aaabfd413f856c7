import Testing
@testable import Explorer

/// The time on a status line: tenths under 10 ms, whole milliseconds above.
struct DurationTextTests {
    @Test(arguments: [
        (Duration.microseconds(0), "0.0 ms"),
        (.microseconds(449), "0.4 ms"),
        (.microseconds(450), "0.5 ms"),
        (.microseconds(9_949), "9.9 ms"),
        (.microseconds(9_950), "10 ms"),
        (.milliseconds(12), "12 ms"),
        (.microseconds(12_500), "13 ms"),
        (.seconds(2), "2000 ms"),
    ])
    func millisecondsAsShown(duration: Duration, text: String) {
        #expect(Renderer.milliseconds(duration) == text)
    }
}
