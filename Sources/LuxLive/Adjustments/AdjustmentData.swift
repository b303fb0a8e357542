/// An edit's recipe, stored with the edited files so the edit can be re-applied to the original or reverted
/// (the PHAdjustmentData role).
///
/// The format identifier and version say who can read `data` (an app's own reverse-DNS name, or
/// ``LivePhotoAdjustments/formatIdentifier`` for Lux's own recipe); `data` is whatever that format serialises.
public struct AdjustmentData: Hashable, Sendable, Codable {
    /// Who wrote `data` (reverse-DNS).
    public var formatIdentifier: String
    /// The version of that format.
    public var formatVersion: String
    /// The serialised recipe.
    public var data: [UInt8]

    /// Creates adjustment data.
    public init(formatIdentifier: String, formatVersion: String, data: [UInt8]) {
        self.formatIdentifier = formatIdentifier
        self.formatVersion = formatVersion
        self.data = data
    }
}
