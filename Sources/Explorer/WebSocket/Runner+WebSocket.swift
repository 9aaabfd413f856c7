/// In the REPL, WebSocket notices print above the prompt as they happen;
/// scripts see frames only through `ws recv`, so their output stays in order.
extension Runner {
    func printSocketNoticesAsync() {
        guard AsyncOutput.shared.install() else { return }
        let renderer = renderer
        runBlocking { [interpreter] in
            await interpreter.setSocketListener { notice in AsyncOutput.shared.post(renderer.notice(notice)) }
        }
    }
}
