/// SHA-256 (FIPS 180-4), for migration checksums. Small and dependency-free; not for secrets.
package enum SHA256 {
    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    /// The eight words of a digest.
    package typealias Words = (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)

    /// The digest of `bytes` as 64 lower-case hex digits.
    package static func hex<Bytes: Collection>(of bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let words = bytes.withContiguousStorageIfAvailable { digest(of: UnsafeRawBufferPointer($0)) }
            ?? Array(bytes).withUnsafeBytes { digest(of: $0) }
        var text: [UInt8] = []
        text.reserveCapacity(64)
        appendHex(words, digits: 64, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends the first `digits` hex digits (lower-case) of `words` to `text`.
    package static func appendHex(_ words: Words, digits: Int, to text: inout [UInt8]) {
        withUnsafeBytes(of: words) { raw in
            for digit in 0..<min(digits, 64) {
                let word = raw.load(fromByteOffset: digit / 8 * 4, as: UInt32.self)
                let nibble = UInt8(truncatingIfNeeded: word >> UInt32(28 - digit % 8 * 4)) & 0xF
                text.append(nibble < 10 ? nibble &+ 48 : nibble &+ 87)
            }
        }
    }

    /// The digest of `bytes`.
    ///
    /// Whole blocks are read where they lie (no copy of the message); only the last block or
    /// two, with the padding, are copied to a buffer on the stack. The rounds are unrolled
    /// eight at a time, so that the eight working variables change roles instead of being
    /// moved each round. (The migrator hashes every object of the schema at each launch:
    /// ``SchemaFingerprint``.)
    package static func digest(of bytes: UnsafeRawBufferPointer) -> Words {
        var h: Words = (0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19)
        let count = bytes.count
        let whole = count / 64 * 64
        k.withUnsafeBufferPointer { k in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
                guard let w = w.baseAddress, let k = k.baseAddress else { return }
                if let base = bytes.baseAddress {
                    var offset = 0
                    while offset < whole {
                        compress(&h, base + offset, w, k)
                        offset &+= 64
                    }
                }
                // The rest, 0x80, zeros, and the length in bits: one block or two.
                withUnsafeTemporaryAllocation(byteCount: 128, alignment: 8) { tail in
                    guard let tailBase = tail.baseAddress else { return }
                    let rest = count &- whole
                    if rest > 0, let base = bytes.baseAddress { tailBase.copyMemory(from: base + whole, byteCount: rest) }
                    tailBase.storeBytes(of: 0x80, toByteOffset: rest, as: UInt8.self)
                    let blocks = rest < 56 ? 1 : 2
                    let end = blocks &* 64
                    var zero = rest &+ 1
                    while zero < end &- 8 {
                        tailBase.storeBytes(of: 0, toByteOffset: zero, as: UInt8.self)
                        zero &+= 1
                    }
                    tailBase.storeBytes(of: (UInt64(count) &* 8).bigEndian, toByteOffset: end &- 8, as: UInt64.self)
                    compress(&h, UnsafeRawPointer(tailBase), w, k)
                    if blocks == 2 { compress(&h, UnsafeRawPointer(tailBase + 64), w, k) }
                }
            }
        }
        return h
    }

    /// One 64-byte block of the compression function; `w` has room for 64 words.
    @inline(__always)
    private static func compress(_ h: inout Words, _ block: UnsafeRawPointer, _ w: UnsafeMutablePointer<UInt32>, _ k: UnsafePointer<UInt32>) {
        for i in 0..<16 {
            w[i] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self))
        }
        for i in 16..<64 {
            let x = w[i &- 15], y = w[i &- 2]
            let s0 = rotr(x, 7) ^ rotr(x, 18) ^ (x >> 3)
            let s1 = rotr(y, 17) ^ rotr(y, 19) ^ (y >> 10)
            w[i] = w[i &- 16] &+ s0 &+ w[i &- 7] &+ s1
        }
        var (a, b, c, d, e, f, g, hh) = h
        var i = 0
        while i < 64 {
            round(a, b, c, &d, e, f, g, &hh, k[i] &+ w[i])
            round(hh, a, b, &c, d, e, f, &g, k[i &+ 1] &+ w[i &+ 1])
            round(g, hh, a, &b, c, d, e, &f, k[i &+ 2] &+ w[i &+ 2])
            round(f, g, hh, &a, b, c, d, &e, k[i &+ 3] &+ w[i &+ 3])
            round(e, f, g, &hh, a, b, c, &d, k[i &+ 4] &+ w[i &+ 4])
            round(d, e, f, &g, hh, a, b, &c, k[i &+ 5] &+ w[i &+ 5])
            round(c, d, e, &f, g, hh, a, &b, k[i &+ 6] &+ w[i &+ 6])
            round(b, c, d, &e, f, g, hh, &a, k[i &+ 7] &+ w[i &+ 7])
            i &+= 8
        }
        h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e, h.5 &+ f, h.6 &+ g, h.7 &+ hh)
    }

    /// One round: `d` and `h` take their new values; the other six only change roles, which
    /// the caller does by passing them in another order next time.
    @inline(__always)
    private static func round(
        _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32, _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: inout UInt32,
        _ kw: UInt32
    ) {
        let t1 = h &+ (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) &+ ((e & f) ^ (~e & g)) &+ kw
        let t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) &+ ((a & b) ^ (a & c) ^ (b & c))
        d = d &+ t1
        h = t1 &+ t2
    }

    @inline(__always)
    private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 {
        (x &>> n) | (x &<< (32 &- n))
    }
}
