import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The file-system seam of ``AtomicFile``: faults a test injects into the writes aimed at one folder, to check
/// that every writer fails cleanly (no partial file, the original kept) and that callers report the error.
///
/// Faults are keyed by the destination folder, so tests writing elsewhere are unaffected. Each fault fires as the
/// real failure would: `diskFull` and `permissionDenied` make the system call fail with `ENOSPC` or `EACCES`;
/// `removedMidWrite` really unlinks the temporary file once that many bytes are written, so the rename fails.
package enum WriteFault: Hashable, Sendable {
    /// Writing fails with `ENOSPC` once the file would exceed `bytes` bytes.
    case diskFull(afterBytes: Int)
    /// Creating the file fails with `EACCES`.
    case permissionDenied
    /// The temporary file is deleted (by someone else) once `bytes` bytes are written.
    case removedMidWrite(afterBytes: Int)

    private static let byFolder = Mutex<[String: WriteFault]>([:])

    /// Injects `fault` into every write into `folder` until ``clear(folder:)``.
    package static func inject(_ fault: WriteFault, folder: String) {
        byFolder.withLock { $0[normalized(folder)] = fault }
    }

    /// Removes the fault of `folder`.
    package static func clear(folder: String) {
        _ = byFolder.withLock { $0.removeValue(forKey: normalized(folder)) }
    }

    /// The fault injected for files in `folder`, if any.
    static func fault(folder: String) -> WriteFault? {
        byFolder.withLock { $0.isEmpty ? nil : $0[normalized(folder)] }
    }

    private static func normalized(_ folder: String) -> String {
        var f = folder
        while f.count > 1, f.hasSuffix("/") { f.removeLast() }
        return f.isEmpty ? "." : f
    }
}
