import Foundation
import Strata

// 100,000 documents of 8-word titles and 40-word bodies drawn from a 2,000-word vocabulary
// with a Zipf-like skew (a deterministic generator: the same data on every run), then 200
// queries of each kind, p50 and p90 per query.
struct Generator {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }
    /// A word index in 0..<count, small indexes far more likely.
    mutating func word(_ count: Int) -> Int {
        let uniform = Double(next() % 1_000_000) / 1_000_000
        return min(count - 1, Int(pow(uniform, 3) * Double(count)))
    }
}

let vocabulary = (0..<2_000).map { index -> String in
    let syllables = ["ka", "lo", "mi", "ne", "su", "ta", "ri", "vo", "pe", "zu", "ba", "do"]
    var word = ""
    var value = index
    repeat {
        word += syllables[value % syllables.count]
        value /= syllables.count
    } while value > 0
    return word + (index % 7 == 0 ? "é" : "")
}

func sentence(_ words: Int, _ generator: inout Generator) -> String {
    (0..<words).map { _ in vocabulary[generator.word(vocabulary.count)] }.joined(separator: " ")
}

func percentile(_ samples: [Double], _ p: Double) -> Double {
    let sorted = samples.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

let rows = 100_000
let path = FileManager.default.temporaryDirectory.appendingPathComponent("strata-search-bench-\(UUID().uuidString).sqlite").path
defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
let db = try Database(path: path)
try Docs.migrate(db)
var generator = Generator()
let loadStart = Date()
try db.write { conn in
    let dao = DocDAO(conn)
    for _ in 0..<rows {
        try dao.insert(Doc(title: sentence(8, &generator), body: sentence(40, &generator)))
    }
}
let loadSeconds = Date().timeIntervalSince(loadStart)

// Queries: one common word, one rare word, two words (AND), each 200 times over different words.
var queries: [(String, [String])] = []
queries.append(("1 common word", (0..<200).map { vocabulary[$0 % 20] }))
queries.append(("1 less common word", (0..<200).map { vocabulary[1_000 + $0] }))
queries.append(("2 words", (0..<200).map { vocabulary[$0 % 50] + " " + vocabulary[50 + $0 % 100] }))

print("SearchBench: \(rows) rows loaded (with the index) in \(String(format: "%.2f", loadSeconds)) s")
print("| query | method | limit | p50 ms | p90 ms | mean hits |")
print("| --- | --- | --- | --- | --- | --- |")
for (name, texts) in queries {
    for (method, limit) in [("search", 20), ("searchWithSnippets", 20), ("search", Int?.none as Int?)] as [(String, Int?)] {
        var samples: [Double] = []
        var hits = 0
        try db.read { conn in
            let dao = DocDAO(conn)
            for text in texts {
                let start = DispatchTime.now().uptimeNanoseconds
                if method == "search" {
                    hits += try dao.search(text, limit: limit).count
                } else {
                    hits += try dao.searchWithSnippets(text, limit: limit).count
                }
                samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
            }
        }
        let limitText = limit.map(String.init) ?? "all"
        print("| \(name) | \(method) | \(limitText) | \(String(format: "%.3f", percentile(samples, 0.5))) | \(String(format: "%.3f", percentile(samples, 0.9))) | \(hits / texts.count) |")
    }
}

// Sync (issue 25): applying a changeset to a replica that has the source's rows and its own
// full-text index. Three ways, timed on copies of the source made before the changeset was
// recorded: `apply` as Strata does it (triggers off, each applied row's index entry replaced);
// the same apply on a copy without the index (what the rows alone cost); and that apply followed
// by rebuilding the whole index (`CREATE VIRTUAL TABLE` again, then FTS5's 'rebuild'). Each
// index is then checked with FTS5's 'integrity-check'. (Letting the index's triggers fire
// during the apply costs what the per-row replacement costs, but fires every other trigger of
// the schema a second time: CompositionRegressionTests.)
func copyOf(_ db: Database, _ name: String) throws -> (Database, String) {
    let copy = path + "-" + name
    try db.writeWithoutTransaction { conn in try conn.execute(sql: "VACUUM INTO ?", arguments: [copy]) }
    return (try Database(path: copy), copy)
}

func milliseconds(since start: UInt64) -> String {
    String(format: "%.1f", Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
}

let ftsSQL = try db.read { conn in try conn.fetchValue(String.self, sql: "SELECT sql FROM sqlite_master WHERE name = 'Doc_fts'") } ?? ""
print("")
print("| changeset | rows | apply, rows reindexed (ms) | apply, no index (ms) | apply, then rebuild the index (ms) |")
print("| --- | --- | --- | --- | --- |")
for (label, count) in [("insert", 100), ("insert", 10_000), ("update title", 100), ("update title", 10_000)] {
    let (indexed, firstPath) = try copyOf(db, "a")
    let (bare, secondPath) = try copyOf(db, "b")
    let (rebuilt, thirdPath) = try copyOf(db, "c")
    defer {
        for base in [firstPath, secondPath, thirdPath] {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: base + suffix) }
        }
    }
    for copy in [bare, rebuilt] {
        try copy.write { conn in
            for name in ["Doc_fts_insert", "Doc_fts_delete", "Doc_fts_update"] { try conn.execute(sql: "DROP TRIGGER \(name)") }
            try conn.execute(sql: "DROP TABLE Doc_fts")
        }
    }
    let changeset = try db.recordChanges { conn in
        let dao = DocDAO(conn)
        if label == "insert" {
            for _ in 0..<count { try dao.insert(Doc(title: sentence(8, &generator), body: sentence(40, &generator))) }
        } else {
            for id in 1...count { _ = try dao.updateAll(set: "title = ?", where: "id = ?", [sentence(8, &generator), id * (rows / count)]) }
        }
    }
    var start = DispatchTime.now().uptimeNanoseconds
    try indexed.apply(changeset, onConflict: .abort)
    let reindexed = milliseconds(since: start)
    start = DispatchTime.now().uptimeNanoseconds
    try bare.apply(changeset, onConflict: .abort)
    let alone = milliseconds(since: start)
    start = DispatchTime.now().uptimeNanoseconds
    try rebuilt.apply(changeset, onConflict: .abort)
    try rebuilt.write { conn in
        try conn.execute(sql: ftsSQL)
        try conn.execute(sql: "INSERT INTO Doc_fts(Doc_fts) VALUES ('rebuild')")
    }
    let rebuilding = milliseconds(since: start)
    for copy in [indexed, rebuilt] {
        try copy.write { conn in try conn.execute(sql: "INSERT INTO Doc_fts(Doc_fts, rank) VALUES ('integrity-check', 1)") }
    }
    print("| \(label) | \(count) | \(reindexed) | \(alone) | \(rebuilding) |")
}
