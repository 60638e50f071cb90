import Foundation

/// The text form Strata stores UUIDs in: canonical, upper-case
/// (`E621E1F8-C36C-495A-93FC-0C247A3E6E5F`). Hand-written for the per-row fast path.
public enum UUIDFormat {
    /// The length of a formatted UUID in bytes.
    public static let byteCount = 36

    /// Writes `uuid` into `buffer` (at least 36 bytes).
    @inlinable
    public static func write(_ uuid: UUID, into buffer: UnsafeMutablePointer<UInt8>) {
        let hex: StaticString = "0123456789ABCDEF"
        withUnsafeBytes(of: uuid.uuid) { raw in
            hex.withUTF8Buffer { digits in
                var out = 0
                for i in 0..<16 {
                    if i == 4 || i == 6 || i == 8 || i == 10 {
                        buffer[out] = 45
                        out += 1
                    }
                    let byte = raw[i]
                    buffer[out] = digits[Int(byte >> 4)]
                    buffer[out + 1] = digits[Int(byte & 0x0F)]
                    out += 2
                }
            }
        }
    }

    /// A UUID from its 16 raw bytes (a BLOB), or nil for another length.
    @inlinable
    public static func uuid(fromRawBytes bytes: UnsafeBufferPointer<UInt8>) -> UUID? {
        guard bytes.count == 16 else { return nil }
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    /// Parses a UUID in canonical text form (either case) from its UTF-8 bytes.
    @inlinable
    public static func uuid(fromUTF8 bytes: UnsafeBufferPointer<UInt8>) -> UUID? {
        guard bytes.count == 36 else { return nil }
        var raw: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let ok = withUnsafeMutableBytes(of: &raw) { out -> Bool in
            var index = 0
            for i in 0..<16 {
                if i == 4 || i == 6 || i == 8 || i == 10 {
                    guard bytes[index] == 45 else { return false }
                    index += 1
                }
                guard let high = nibble(bytes[index]), let low = nibble(bytes[index + 1]) else { return false }
                out[i] = high << 4 | low
                index += 2
            }
            return true
        }
        return ok ? UUID(uuid: raw) : nil
    }

    @inlinable
    static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: c - 48
        case 65...70: c - 55
        case 97...102: c - 87
        default: nil
        }
    }
}
