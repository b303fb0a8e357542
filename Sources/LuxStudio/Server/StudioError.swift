/// An error of the studio server: a refused configuration or request, or a failed camera or gallery operation.
public enum StudioError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A host other than loopback was asked for without an access token.
    case tokenRequired(host: String)
    /// A setting of ``StudioConfiguration`` is out of range.
    case invalidConfiguration(String)
    /// A gallery folder does not exist or is not a folder.
    case notAFolder(String)
    /// A request named a file outside the gallery folders (`..`, an encoded `..`, a symlink out) or none at all.
    case outsideGallery(String)
    /// A message from a client could not be understood; the text says why.
    case malformedMessage(String)
    /// The camera refused or failed an operation.
    case camera(String)
    /// An upload's name is not one visible file name with an extension the gallery shows.
    case invalidUploadName(String)
    /// An upload is larger than ``StudioConfiguration/maxUploadBytes``.
    case uploadTooLarge(name: String, limit: Int)
    /// An upload's content is not an image, RAW file or movie Lux reads, or not the format its name says.
    case unsupportedUpload(name: String, reason: String)
    /// A file (an upload, a capture) could not be written to the capture folder.
    case cannotSave(name: String, reason: String)

    public var description: String {
        switch self {
        case .tokenRequired(let host):
            "serving on \(host), which is not a loopback address, needs an access token (--token)"
        case .invalidConfiguration(let reason): "invalid studio configuration: \(reason)"
        case .notAFolder(let path): "\(path): not a folder"
        case .outsideGallery(let path): "\(path): not a file of the gallery folders"
        case .malformedMessage(let reason): "malformed message: \(reason)"
        case .camera(let reason): "camera: \(reason)"
        case .invalidUploadName(let name):
            "\(name): not a file name to upload (a visible name, no folders, ending in an image, RAW or .mov extension)"
        case .uploadTooLarge(let name, let limit): "\(name): larger than the upload limit of \(limit) bytes"
        case .unsupportedUpload(let name, let reason): "\(name): \(reason)"
        case .cannotSave(let name, let reason): "\(name): cannot be saved: \(reason)"
        }
    }
}
