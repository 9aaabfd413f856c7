import Synchronization

/// A value one thread replaces and others read (the renderer a socket's
/// thread prints frames with, while the session's lines change it).
final class Shared<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    var value: Value { mutex.withLock { $0 } }

    func set(_ value: Value) { mutex.withLock { $0 = value } }

    /// Changes the value in place and returns what `change` does, under the one lock.
    func update<Result: Sendable>(_ change: (inout sending Value) -> sending Result) -> Result { mutex.withLock { change(&$0) } }
}
