/// The directory tree of a DNG or TIFF/EP raw file: every IFD reachable from IFD0 through SubIFDs and
/// next-IFD links, with the raw image and preview directories identified.
struct DNGStructure {
    let parser: TIFFParser
    let ifd0: TIFFDirectory
    /// Every image directory found (IFD0 first), with its depth-first path for messages.
    let directories: [(name: String, directory: TIFFDirectory)]
    /// The main raw image directory, if any.
    let raw: TIFFDirectory?
    let rawName: String

    static let maxDirectories = 64

    init(_ bytes: UnsafeRawBufferPointer) throws(CodecError) {
        let p = try TIFFParser(bytes, context: "DNG")
        parser = p
        let root = try p.directory(at: p.firstDirectoryOffset, name: "IFD0")
        ifd0 = root
        var found: [(String, TIFFDirectory)] = [("IFD0", root)]
        var visited: Set<Int> = [root.offset]
        // Breadth-first over SubIFDs and chained IFDs; damaged children are skipped (the raw may still be fine).
        // Queue items: name, directory, depth, index in the top-level chain (nil for SubIFDs).
        var queue: [(String, TIFFDirectory, Int, Int?)] = [("IFD0", root, 0, 0)]
        while !queue.isEmpty, found.count < Self.maxDirectories {
            let (name, dir, depth, chainIndex) = queue.removeFirst()
            guard depth < 4 else { continue }
            var children: [(String, Int, Int?)] = []
            if let subs = try? p.childOffsets(dir, TIFFTag.subIFDs) {
                children += subs.enumerated().map { ("\(name).SubIFD\($0.offset)", $0.element, nil) }
            }
            if dir.nextOffset != 0, let n = chainIndex {
                children.append(("IFD\(n + 1)", dir.nextOffset, n + 1))
            }
            for (childName, offset, index) in children
            where !visited.contains(offset) && found.count < Self.maxDirectories {
                visited.insert(offset)
                guard let child = try? p.directory(at: offset, name: childName) else { continue }
                found.append((childName, child))
                queue.append((childName, child, index == nil ? depth + 1 : depth, index))
            }
        }
        directories = found
        // The raw image: NewSubFileType 0 with CFA or LinearRaw photometric; the largest if several.
        func photometric(_ d: TIFFDirectory) -> Int { ((try? p.integer(d, TIFFTag.photometric)) ?? nil) ?? -1 }
        func subfile(_ d: TIFFDirectory) -> Int { ((try? p.integer(d, TIFFTag.newSubfileType)) ?? nil) ?? 0 }
        func area(_ d: TIFFDirectory) -> Int {
            let w = ((try? p.integer(d, TIFFTag.imageWidth)) ?? nil) ?? 0
            let h = ((try? p.integer(d, TIFFTag.imageLength)) ?? nil) ?? 0
            return w * h
        }
        let rawCandidates = found.filter { [32803, 34892].contains(photometric($0.1)) }
        let main = rawCandidates.filter { subfile($0.1) == 0 }
        let pick = (main.isEmpty ? rawCandidates : main).max { area($0.1) < area($1.1) }
        raw = pick?.1
        rawName = pick?.0 ?? "raw IFD"
    }

    /// The value of a tag from the raw directory, falling back to IFD0 (where DNG puts camera-wide tags).
    func entry(_ tag: UInt16) -> (TIFFDirectory, TIFFEntry)? {
        if let r = raw, let e = r[tag] { return (r, e) }
        if let e = ifd0[tag] { return (ifd0, e) }
        return nil
    }

    func integers(_ tag: UInt16) -> [Int]? {
        guard let (d, _) = entry(tag) else { return nil }
        return (try? parser.integers(d, tag)) ?? nil
    }

    func doubles(_ tag: UInt16) -> [Double]? {
        guard let (d, _) = entry(tag) else { return nil }
        guard let v = (try? parser.doubles(d, tag)) ?? nil else { return nil }
        return v
    }

    func double(_ tag: UInt16) -> Double? {
        guard let v = doubles(tag)?.first, v.isFinite else { return nil }
        return v
    }

    func string(_ tag: UInt16) -> String? {
        guard let (d, _) = entry(tag), let s = (try? parser.string(d, tag)) ?? nil else { return nil }
        let t = s.trimming(" \0")
        return t.isEmpty ? nil : s
    }

    func bytes(_ tag: UInt16) -> [UInt8]? {
        guard let (d, _) = entry(tag) else { return nil }
        return (try? parser.rawBytes(d, tag)) ?? nil
    }
}
