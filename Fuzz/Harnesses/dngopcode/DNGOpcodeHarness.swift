import FuzzSupport

@testable import LuxCodecs

/// DNG opcode lists (OpcodeList1/2/3 blobs): parsing, the typed accessors, and the round trip
/// parse → encode → parse, which must reproduce the same bytes.
func fuzzDNGOpcodes(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let list = try? DNGOpcode.parseList(Fuzz.bytes(data, count)) else { return 0 }
    for op in list {
        _ = op.name
        if case .gainMap(let map) = op.operation {
            _ = map.gain(row: 0, column: 0, plane: 0)
            _ = map.gain(row: Int(map.pointsV) - 1, column: Int(map.pointsH) - 1, plane: Int(map.mapPlanes))
        }
    }
    let encoded = DNGOpcode.encodeList(list)
    guard let again = try? DNGOpcode.parseList(encoded) else {
        fatalError("an encoded opcode list does not parse")
    }
    precondition(DNGOpcode.encodeList(again) == encoded, "opcode list round trip changed the bytes")
    return 0
}

@_cdecl("fuzz_dngopcode_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    Fuzz.run(argc, argv, input: fuzzDNGOpcodes) {
        var seeds = [("all.bin", DNGOpcode.encodeList(Seeds.opcodes))]
        for (i, op) in Seeds.opcodes.enumerated() { seeds.append(("op\(i).bin", DNGOpcode.encodeList([op]))) }
        return seeds
    }
}
