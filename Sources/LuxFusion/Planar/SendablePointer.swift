/// A pointer that may cross into `@Sendable` band closures (the caller guarantees disjoint writes).
struct SendablePointer<T>: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<T>
    init(_ pointer: UnsafeMutablePointer<T>) { self.pointer = pointer }
}
