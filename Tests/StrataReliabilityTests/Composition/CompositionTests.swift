// SQLCipher builds leave out SQLite's session extension, so changesets exist only where the
// system SQLite is linked (docs/Encryption.md; plugin-driven builds enable both traits).
#if SystemSQLite || !SQLCipher
import Foundation
import Strata
@testable import StrataCompiler
import StrataTestSupport
import Testing

/// The combination test of issue 25: random sequences of the operations that cross Strata's
/// features, on the tables of `Compose.schema.yml` (search + expires + foreign keys of every
/// action + WITHOUT ROWID + strict: false + composite keys + a view + a trigger + typed
/// queries), with every source transaction recorded and applied to a replica. After every step
/// an oracle checks both databases.
///
/// `STRATA_COMPOSE_SEED` picks the seed (default 25), `STRATA_COMPOSE_STEPS` the number of
/// steps (default 2,000; 100,000 with `STRATA_LONG_TESTS=1`). A failure names the seed, the
/// step and the operations before it: rerun with that seed to reproduce it.
@Suite(.serialized) struct CompositionTests {
    static var seed: UInt64 {
        ProcessInfo.processInfo.environment["STRATA_COMPOSE_SEED"].flatMap { UInt64($0) } ?? 25
    }
    static var steps: Int { Reliability.size("STRATA_COMPOSE_STEPS", fast: 2_000, long: 100_000) }

    @Test func randomOperationSequencesKeepEveryInvariant() async throws {
        let run = try CompositionRun(seed: Self.seed)
        let started = Date()
        try await run.run(steps: Self.steps)
        let seconds = Date().timeIntervalSince(started)
        Reliability.figure(
            String(
                format: "compose seed=%llu steps=%d failures=0 seconds=%.1f %@", Self.seed, Self.steps, seconds,
                run.tally.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")))
        // The run must have crossed the features it is about, not just tried to.
        for kind in [
            "applied", "applied-tags", "applied-pages", "cascade", "purged", "searched", "observed", "constraint", "cancelled", "vacuumed",
            "migrated", "refused-version", "marker-name-taken", "marker-found-ignoring-case", "marker-due",
        ] {
            #expect(run.tally[kind, default: 0] > 0, "no step did \(kind)")
        }
    }
}

/// An oracle failure: what was wrong, at which step of which seed.
struct CompositionFailure: Error, CustomStringConvertible {
    var description: String
}

/// What the observer of the replica last delivered: the notes' ids and titles, the full-text
/// matches of one word, the folders' counters (clock-independent raw SQL: an observation runs
/// again on commits, not when the clock passes an `expiresAt`).
struct ObservedState: Sendable, Equatable {
    var notes: [String]
    var matches: [Int]
    var folders: [String]
    var tags: [String]

    static func read(_ conn: Connection) throws -> ObservedState {
        ObservedState(
            notes: try conn.fetch(sql: "SELECT id || ':' || title FROM Note ORDER BY id").map { try $0.get(0) },
            matches: try conn.fetch(sql: "SELECT rowid FROM Note_fts WHERE Note_fts MATCH 'alpha' ORDER BY rowid").map { try $0.get(0) },
            folders: try conn.fetch(sql: "SELECT id || ':' || noteCount FROM Folder ORDER BY id").map { try $0.get(0) },
            tags: try conn.fetch(sql: "SELECT noteId || '/' || name || ':' || ifnull(weight, '-') FROM Tag ORDER BY noteId, name").map { try $0.get(0) })
    }
}

/// One run of the combination test: a source, a replica, a clock and a seeded generator.
final class CompositionRun: @unchecked Sendable {
    static let words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"]
    static let tables = [
        ("Folder", "id"), ("Note", "id"), ("Tag", "noteId, name"), ("Page", "slug"), ("Pin", "id"), ("Ref", "id"), ("Memo", "id"),
        ("Marker", "id"),
    ]
    static let schemaFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Compose.schema.yml")

    let seed: UInt64
    var random: SeededGenerator
    let directory: TemporaryDirectory
    let clock = Locked(Date(timeIntervalSince1970: 1_800_000_000))
    let source: Database
    let replica: Database
    let observed = Locked<ObservedState?>(nil)
    var observer: Task<Void, Never>?
    var history: [String] = []
    var tally: [String: Int] = [:]
    /// Memo's searched column: `label` until the migration in the middle renames it `caption`.
    var memoText = "label"
    var migrated = false

    init(seed: UInt64) throws {
        self.seed = seed
        random = SeededGenerator(state: seed)
        directory = try TemporaryDirectory()
        var configuration = Database.Configuration()
        let clock = self.clock
        configuration.now = { clock.withLock { $0 } }
        source = try Database(path: directory.path("source.sqlite"), configuration: configuration)
        replica = try Database(path: directory.path("replica.sqlite"), configuration: configuration)
        for db in [source, replica] {
            try Compose.migrate(db)
        }
        // Folder 0 is where `onDelete: setDefault` sends references; it is in both from the start.
        try sourceWrite("seed") { conn in
            try FolderDAO(conn).insert(Folder(id: 0, name: "inbox"))
        }
    }

    deinit { observer?.cancel() }

    func count(_ kind: String, _ by: Int = 1) { tally[kind, default: 0] += by }

    func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    func chance(_ percent: Int) -> Bool { int(1...100) <= percent }
    func words(_ count: ClosedRange<Int>) -> String {
        (0..<int(count)).map { _ in Self.words.randomElement(using: &random)! }.joined(separator: " ")
    }
    var now: Date { clock.withLock { $0 } }

    // MARK: The run

    func run(steps: Int) async throws {
        let replica = self.replica
        let observed = self.observed
        let values = replica.observe { conn in try ObservedState.read(conn) }
        observer = Task {
            do {
                for try await value in values { observed.withLock { $0 = value } }
            } catch {}
        }
        for step in 0..<steps {
            do {
                if step == steps / 2 { try migrateInTheMiddle() }
                try await self.step()
                try await check()
            } catch {
                throw CompositionFailure(
                    description: """
                        seed \(seed), step \(step) (rerun: STRATA_COMPOSE_SEED=\(seed) STRATA_COMPOSE_STEPS=\(step + 1)): \(error)
                        last operations:
                        \(history.suffix(12).joined(separator: "\n"))
                        """)
            }
        }
        observer?.cancel()
    }

    /// One random operation.
    func step() async throws {
        switch int(1...100) {
        case 1...14: try noteWrite()
        case 15...22: try tagWrite()
        case 23...30: try pageWrite()
        case 31...36: try folderWrite()
        case 37...44: try pinOrRefWrite()
        case 45...54: try batch()
        case 55...60: try bulkUpdate()
        case 61...68:
            let seconds = int(1...40)
            clock.withLock { $0 = $0.addingTimeInterval(TimeInterval(seconds)) }
            history.append("clock +\(seconds) s")
        case 69...72: try purge()
        case 73...74: try await cancelledWrite()
        case 76...80: try memoWrite()
        case 81...86: try markerWrite()
        case 75:
            // VACUUM may renumber the rowids of a table without an INTEGER PRIMARY KEY (Page),
            // which its full-text index refers to.
            let db = chance(50) ? source : replica
            history.append("VACUUM \(db === source ? "source" : "replica")")
            try db.writeWithoutTransaction { conn in try conn.execute(sql: "VACUUM") }
            count("vacuumed")
        default: try noteWrite()
        }
    }

    // MARK: Writes to the source, recorded and applied to the replica

    /// Runs `body` on the source with `recordChanges`, sends the changeset through its bytes
    /// and applies it to the replica with a random policy: it must meet no conflict. A
    /// constraint the operation breaks (a taken key, a `restrict` …) fails it on the source
    /// and nothing is recorded.
    func sourceWrite(_ name: String, _ body: (Connection) throws -> Void) throws {
        history.append(name)
        let changeset: Changeset
        do {
            changeset = try source.recordChanges(body)
        } catch let error as StrataError where error.constraint != nil {
            history[history.count - 1] += "  → \(error.constraint!.rawValue) constraint"
            count("constraint")
            return
        }
        let received = try Changeset(data: changeset.data)
        guard received == changeset, received.schemaVersion == changeset.schemaVersion else {
            throw CompositionFailure(description: "the changeset did not survive its bytes")
        }
        for table in received.tables where !Self.tables.contains(where: { $0.0 == table }) {
            throw CompositionFailure(description: "the changeset records table \(table), which the schema does not declare")
        }
        let policy = [Changeset.ConflictResolution.replace, .ignore, .abort].randomElement(using: &random)!
        let conflicts = try replica.apply(received, onConflict: policy)
        history[history.count - 1] += "  → \(received) .\(policy.rawValue)"
        guard conflicts == 0 else {
            throw CompositionFailure(description: "applying \(received) to an identical replica met \(conflicts) conflicts")
        }
        if !received.isEmpty { count("applied") }
        if received.tables.contains("Tag") { count("applied-tags") }
        if received.tables.contains("Page") { count("applied-pages") }
        if received.changes.contains(where: { $0.table == "Tag" && $0.operation == .delete })
            && received.changes.contains(where: { $0.table == "Note" && $0.operation == .delete })
        {
            count("cascade")
        }
    }

    func randomNote() -> Note {
        Note(
            id: int(1...12), folderId: chance(70) ? int(0...4) : nil, title: words(1...3),
            body: chance(70) ? words(0...4) : nil, stars: int(0...5),
            expiresAt: chance(35) ? now.addingTimeInterval(TimeInterval(int(1...120))) : nil)
    }

    func noteWrite() throws {
        let note = randomNote()
        switch int(1...6) {
        case 1: try sourceWrite("insert note \(note.id)") { try NoteDAO($0).insert(note) }
        case 2:
            let seconds = int(1...90)
            try sourceWrite("insert note \(note.id) expiresIn \(seconds)") { try NoteDAO($0).insert(note, expiresIn: .seconds(seconds)) }
        case 3: try sourceWrite("upsert note \(note.id)") { try NoteDAO($0).upsert(note) }
        case 4:
            try sourceWrite("update note \(note.id) title/body") { conn in
                let dao = NoteDAO(conn)
                guard var stored = try dao.find(id: note.id) else { return }
                stored.title = note.title
                stored.body = note.body
                try dao.update(stored)
            }
        case 5: try sourceWrite("delete note \(note.id)") { _ = try NoteDAO($0).deleteAll(where: "id = ?", [note.id]) }
        default:
            try sourceWrite("update note \(note.id) folder/stars") {
                _ = try NoteDAO($0).updateAll(set: "folderId = ?, stars = ?", where: "id = ?", [note.folderId, note.stars, note.id])
            }
        }
    }

    func tagWrite() throws {
        let tag = Tag(
            noteId: int(1...12), name: ["a", "b", "c"].randomElement(using: &random)!, weight: chance(50) ? Double(int(0...9)) / 4 : nil,
            expiresAt: chance(25) ? now.addingTimeInterval(TimeInterval(int(1...120))) : nil)
        switch int(1...3) {
        case 1: try sourceWrite("insert tag \(tag.noteId)/\(tag.name)") { try TagDAO($0).insert(tag) }
        case 2: try sourceWrite("upsert tag \(tag.noteId)/\(tag.name)") { try TagDAO($0).upsert(tag) }
        default: try sourceWrite("delete tag \(tag.noteId)/\(tag.name)") { _ = try TagDAO($0).delete(tag) }
        }
    }

    func pageWrite() throws {
        let slug = "p\(int(0...7))"
        let page = Page(slug: slug, content: words(1...5), expiresAt: chance(30) ? now.addingTimeInterval(TimeInterval(int(1...120))) : nil)
        switch int(1...4) {
        case 1: try sourceWrite("insert page \(slug)") { try PageDAO($0).insert(page) }
        case 2: try sourceWrite("upsert page \(slug)") { try PageDAO($0).upsert(page) }
        case 3:
            try sourceWrite("update page \(slug) content") {
                _ = try PageDAO($0).updateAll(set: "content = ?", where: "slug = ?", [page.content, slug])
            }
        default: try sourceWrite("delete page \(slug)") { _ = try PageDAO($0).deleteAll(where: "slug = ?", [slug]) }
        }
    }

    func folderWrite() throws {
        let id = int(0...4)
        if chance(55) {
            try sourceWrite("upsert folder \(id)") { try FolderDAO($0).upsert(Folder(id: id, name: self.words(1...1))) }
        } else {
            try sourceWrite("delete folder \(id)") { _ = try FolderDAO($0).deleteAll(where: "id = ?", [id]) }
        }
    }

    func pinOrRefWrite() throws {
        let id = int(1...6)
        switch int(1...4) {
        case 1: try sourceWrite("upsert pin \(id)") { try PinDAO($0).upsert(Pin(id: id, folderId: self.int(0...4))) }
        case 2: try sourceWrite("delete pin \(id)") { _ = try PinDAO($0).deleteAll(where: "id = ?", [id]) }
        case 3:
            try sourceWrite("upsert ref \(id)") { try RefDAO($0).upsert(Ref(id: id, folderId: self.int(0...4), pinId: self.chance(60) ? self.int(1...6) : nil)) }
        default: try sourceWrite("delete ref \(id)") { _ = try RefDAO($0).deleteAll(where: "id = ?", [id]) }
        }
    }

    /// Marker through its DAO: names from a few words in any case (NOCASE and unique, so a name
    /// another marker has in another case is taken), dates in two formats around the clock.
    func markerWrite() throws {
        let id = int(1...6)
        let word = ["red", "blue", "green"].randomElement(using: &random)!
        let name = [word, word.capitalized, word.uppercased()].randomElement(using: &random)!
        switch int(1...4) {
        case 1, 2:
            let marker = Marker(
                id: id, name: name, folderId: chance(50) ? int(0...4) : nil, seenAt: now.addingTimeInterval(Double(int(-5_000...5_000)) / 8),
                dueAt: chance(70) ? now.addingTimeInterval(Double(int(-100_000...100_000)) / 1_000) : nil, rank: int(0...9))
            try markerWrite("upsert marker \(id) '\(name)'", id: id, name: name, updateOnly: false) { try MarkerDAO($0).upsert(marker) }
        case 3:
            try markerWrite("rename marker \(id) '\(name)'", id: id, name: name, updateOnly: true) {
                _ = try MarkerDAO($0).updateAll(set: "name = ?", where: "id = ?", [name, id])
            }
        default: try sourceWrite("delete marker \(id)") { _ = try MarkerDAO($0).deleteAll(where: "id = ?", [id]) }
        }
    }

    /// A write of `name` to marker `id` (an insert or update, or only an update) that SQLite must
    /// refuse when another marker has the name in any case.
    func markerWrite(_ operation: String, id: Int, name: String, updateOnly: Bool, _ body: (Connection) throws -> Void) throws {
        let taken = try source.read { conn in
            let others = try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM Marker WHERE lower(name) = lower(?) AND id <> ?", arguments: [name, id]) ?? 0
            let exists = try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM Marker WHERE id = ?", arguments: [id]) ?? 0
            return updateOnly && exists == 0 ? 0 : others
        }
        let constraintsBefore = tally["constraint", default: 0]
        try sourceWrite(operation, body)
        let refused = tally["constraint", default: 0] > constraintsBefore
        if taken > 0 {
            guard refused else { throw CompositionFailure(description: "\(operation): '\(name)' is taken in another case, yet the write passed") }
            count("marker-name-taken")
        }
    }

    /// Memo through raw SQL (its columns change in the middle of the run).
    func memoWrite() throws {
        let id = int(1...8)
        let text = words(1...4)
        let size = int(0...100)
        let column = memoText
        switch int(1...4) {
        case 1, 2:
            try sourceWrite("upsert memo \(id)") { conn in
                try conn.execute(
                    sql: "INSERT INTO Memo(id, \(column), size) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET \(column) = excluded.\(column), size = excluded.size",
                    arguments: [id, text, self.migrated ? Double(size) / 4 : Double(size)])
            }
        case 3: try sourceWrite("update memo \(id) \(column)") { try $0.execute(sql: "UPDATE Memo SET \(column) = ? WHERE id = ?", arguments: [text, id]) }
        default: try sourceWrite("delete memo \(id)") { try $0.execute(sql: "DELETE FROM Memo WHERE id = ?", arguments: [id]) }
        }
    }

    /// The migration in the middle of the run: Memo's searched `label` is renamed `caption`
    /// and `size` becomes a double (a table rebuild, its index dropped and made again),
    /// planned by StrataCompiler from the edited schema as `strata migration new` plans it.
    /// A changeset recorded before the source migrated reaches the replica before it
    /// migrates; one recorded after is refused by the replica until it migrates too.
    func migrateInTheMiddle() throws {
        let yaml = try String(contentsOf: Self.schemaFile, encoding: .utf8)
            .replacingOccurrences(of: "      label: text\n      size: int\n", with: "      caption: { type: text, renamedFrom: label }\n      size: double\n")
            .replacingOccurrences(of: "search: { columns: [label] }", with: "search: { columns: [caption] }")
            .replacingOccurrences(of: "      rank: int\n", with: "      rank: double\n")
        let schema = try SchemaLoader.load(contents: yaml, path: "Compose.schema.yml")
        let plan = try MigrationPlanner.plan(schema: schema, migrations: Compose.migrations, options: .init())
        guard !plan.isEmpty else { throw CompositionFailure(description: "the planner planned nothing for the rename and retype") }
        let version = Compose.migrations.count + 1
        let migration = Migration(
            version: version, name: "rename_and_retype",
            sql: MigrationRenderer.render(plan, version: version, name: "rename_and_retype", schemaFile: "Compose.schema.yml"))
        let migrator = Migrator(migrations: Compose.migrations + [migration])
        history.append("migrate to \(version): Memo.label → caption, Memo.size → double, Marker.rank → double")
        let inFlight = try source.recordChanges { conn in
            try conn.execute(sql: "INSERT OR REPLACE INTO Memo(id, label, size) VALUES (99, 'in flight', 1)")
        }
        try migrator.migrate(source)
        try replica.apply(inFlight, onConflict: .abort)  // recorded at the version the replica is at
        let after = try source.recordChanges { conn in
            try conn.execute(sql: "UPDATE Memo SET caption = 'after the migration', size = 2.5 WHERE id = 99")
        }
        do {
            try replica.apply(after, onConflict: .abort)
            throw CompositionFailure(description: "the replica at version \(version - 1) applied a changeset of version \(version)")
        } catch let error as StrataError where error.kind == .schemaMismatch {
            count("refused-version")
        }
        try migrator.migrate(replica)
        #expect(try replica.apply(after, onConflict: .abort) == 0)
        memoText = "caption"
        migrated = true
        count("migrated")
    }

    /// Several writes in one recorded transaction.
    func batch() throws {
        let notes = (0..<int(2...4)).map { _ in randomNote() }
        let tags = (0..<int(0...3)).map { _ in Tag(noteId: int(1...12), name: ["a", "b", "c"].randomElement(using: &random)!, weight: nil) }
        let deleted = int(1...12)
        let page = Page(slug: "p\(int(0...7))", content: words(1...3), expiresAt: nil)
        try sourceWrite("batch: upsert notes \(notes.map(\.id)), tags, delete note \(deleted), upsert page \(page.slug)") { conn in
            for note in notes { try NoteDAO(conn).upsert(note) }
            for tag in tags { try TagDAO(conn).upsert(tag) }
            _ = try NoteDAO(conn).deleteAll(where: "id = ?", [deleted])
            try PageDAO(conn).upsert(page)
        }
    }

    /// One statement that updates many rows' searched columns.
    func bulkUpdate() throws {
        let word = Self.words.randomElement(using: &random)!
        let stars = int(0...5)
        try sourceWrite("bulk update notes with stars >= \(stars): title += \(word)") {
            _ = try NoteDAO($0).updateAll(set: "title = title || ' ' || ?", where: "stars >= ?", [word, stars])
        }
    }

    /// `purgeExpired` on both sides at the same time by the same clock: each database purges
    /// its own expired rows, so both stay equal without a changeset.
    func purge() throws {
        history.append("purgeExpired both")
        var outcomes: [String] = []
        for db in [source, replica] {
            do {
                let purged = try Compose.purgeExpired(db)
                outcomes.append("purged \(purged)")
                count("purged", purged)
            } catch let error as StrataError where error.constraint != nil {
                outcomes.append("refused: \(error.constraint!.rawValue)")
                count("purge-refused")
            }
        }
        history[history.count - 1] += "  → \(outcomes)"
        guard outcomes[0] == outcomes[1] else {
            throw CompositionFailure(description: "purgeExpired did different things on two equal databases: \(outcomes)")
        }
    }

    /// A long write on the source cancelled while it runs: it commits whole or not at all.
    /// Its net effect is nil (it inserts notes and deletes them again), so either way the
    /// source must be as it was.
    func cancelledWrite() async throws {
        history.append("cancelled write")
        let before = try snapshot(source)
        let base = 1_000 + int(0...1_000)
        let delay = UInt64(int(0...3_000)) * 1_000
        let source = self.source
        let task = Task {
            try await source.write { conn in
                let dao = NoteDAO(conn)
                for id in base..<(base + 400) {
                    try dao.insert(Note(id: id, folderId: nil, title: "cancel alpha \(id)", body: nil, stars: 1))
                }
                _ = try dao.deleteAll(where: "id >= ?", [base])
            }
        }
        try await Task.sleep(nanoseconds: delay)
        task.cancel()
        let result = await task.result
        switch result {
        case .success: history[history.count - 1] += "  → committed"
        case .failure(let error) where error is CancellationError:
            history[history.count - 1] += "  → cancelled"
            count("cancelled")
        case .failure(let error): throw error
        }
        guard try snapshot(source) == before else {
            throw CompositionFailure(description: "a cancelled write left rows behind: \(result)")
        }
    }

    // MARK: The oracle

    /// Every row of every declared table, in key order.
    func snapshot(_ db: Database) throws -> [[Row]] {
        try db.read { conn in
            try Self.tables.map { table, key in try conn.fetch(sql: "SELECT * FROM \(table) ORDER BY \(key)") }
        }
    }

    /// Marker's oracle: names unique ignoring case (the NOCASE column kept by every rebuild),
    /// found by the typed query in any case; dates stored in their formats (REAL reference-date
    /// seconds, INTEGER Unix milliseconds) and read back as those instants; `dueBefore` agrees
    /// with a scan of the stored milliseconds.
    func checkMarkers(_ conn: Connection, _ name: String, now: Date) throws {
        let ddl = try conn.fetchValue(String.self, sql: "SELECT sql FROM sqlite_master WHERE name = 'Marker'") ?? ""
        guard ddl.contains(#""name" TEXT NOT NULL UNIQUE COLLATE NOCASE"#) else {
            throw CompositionFailure(description: "\(name): Marker lost its NOCASE unique name: \(ddl)")
        }
        let rows = try conn.fetch(sql: "SELECT id, name, seenAt, typeof(seenAt), dueAt, typeof(dueAt) FROM Marker ORDER BY id")
        let markers = try MarkerDAO(conn).fetchAll(orderBy: "id")
        guard markers.count == rows.count else { throw CompositionFailure(description: "\(name): \(markers.count) markers, \(rows.count) rows") }
        guard Set(try rows.map { try $0.get(1, as: String.self).lowercased() }).count == rows.count else {
            throw CompositionFailure(description: "\(name): two markers have one name ignoring case")
        }
        for (row, marker) in zip(rows, markers) {
            let seen: Double = try row.get(2)
            guard try row.get(3, as: String.self) == "real", abs(seen - marker.seenAt.timeIntervalSinceReferenceDate) < 1e-6 else {
                throw CompositionFailure(description: "\(name): marker \(marker.id) seenAt is stored \(row[2]) (\(row[3])), reads \(marker.seenAt)")
            }
            let due: Int64? = try row.get(4)
            let expected = marker.dueAt.map { Int64(($0.timeIntervalSince1970 * 1_000).rounded()) }
            let dueType: String = try row.get(5)
            guard due == expected, due == nil || dueType == "integer" else {
                throw CompositionFailure(description: "\(name): marker \(marker.id) dueAt is stored \(row[4]) (\(row[5])), reads \(String(describing: marker.dueAt))")
            }
        }
        if let marker = markers.randomElement(using: &random) {
            let found = try MarkerDAO(conn).named(name: marker.name.uppercased())
            guard found?.id == marker.id else {
                throw CompositionFailure(description: "\(name): named('\(marker.name.uppercased())') found \(String(describing: found?.id)), not \(marker.id)")
            }
            count("marker-found-ignoring-case")
        }
        let millis = Int64((now.timeIntervalSince1970 * 1_000).rounded(.down))
        let scanned = try conn.fetch(sql: "SELECT id FROM Marker WHERE dueAt < ? ORDER BY id", arguments: [millis]).map { try $0.get(0, as: Int.self) }
        let due = try MarkerDAO(conn).dueBefore(before: now).map(\.id)
        guard due == scanned else { throw CompositionFailure(description: "\(name): dueBefore(now) = \(due), a scan \(scanned)") }
        if !due.isEmpty { count("marker-due") }
    }

    func check() async throws {
        let now = self.now
        let word = Self.words.randomElement(using: &random)!
        for (name, db) in [("source", source), ("replica", replica)] {
            try await db.write { conn in
                let integrity = try conn.fetch(sql: "PRAGMA integrity_check").map { try $0.get(0, as: String.self) }
                guard integrity == ["ok"] else { throw CompositionFailure(description: "\(name): integrity_check: \(integrity)") }
                let violations = try conn.fetch(sql: "PRAGMA foreign_key_check")
                guard violations.isEmpty else { throw CompositionFailure(description: "\(name): foreign_key_check: \(violations)") }
                for fts in ["Note_fts", "Page_fts", "Memo_fts"] {
                    do {
                        try conn.execute(sql: "INSERT INTO \(fts)(\(fts), rank) VALUES ('integrity-check', 1)")
                    } catch {
                        throw CompositionFailure(description: "\(name): \(fts) integrity-check: \(error)")
                    }
                }
            }
            try await db.read { conn in
                // The index answers as a scan of the words does; the DAO's search leaves out
                // expired rows.
                let pattern = "% \(word) %"
                let indexed = try conn.fetch(sql: "SELECT rowid FROM Note_fts WHERE Note_fts MATCH ? ORDER BY rowid", arguments: [word])
                    .map { try $0.get(0, as: Int.self) }
                let scanned = try conn.fetch(
                    sql: "SELECT id FROM Note WHERE ' ' || title || ' ' LIKE ?1 OR ' ' || ifnull(body, '') || ' ' LIKE ?1 ORDER BY id",
                    arguments: [pattern]
                ).map { try $0.get(0, as: Int.self) }
                guard indexed == scanned else {
                    throw CompositionFailure(description: "\(name): Note_fts finds \(indexed) for '\(word)', a scan \(scanned)")
                }
                let live = try conn.fetch(
                    sql: "SELECT id FROM Note WHERE id IN (\(scanned.map(String.init).joined(separator: ",")))"
                        + " AND (expiresAt IS NULL OR expiresAt > ?) ORDER BY id", arguments: [now]
                ).map { try $0.get(0, as: Int.self) }
                let searched = try NoteDAO(conn).search(word).map(\.id).sorted()
                guard searched == live else {
                    throw CompositionFailure(description: "\(name): NoteDAO.search('\(word)') = \(searched), live matches \(live)")
                }
                if !searched.isEmpty { self.count("searched") }
                let pages = try PageDAO(conn).search(word).map(\.slug).sorted()
                let scannedPages = try conn.fetch(
                    sql: "SELECT slug FROM Page WHERE ' ' || content || ' ' LIKE ? AND (expiresAt IS NULL OR expiresAt > ?) ORDER BY slug",
                    arguments: [pattern, now]
                ).map { try $0.get(0, as: String.self) }
                guard pages == scannedPages else {
                    throw CompositionFailure(description: "\(name): PageDAO.search('\(word)') = \(pages), a scan \(scannedPages)")
                }
                let memoIndexed = try conn.fetch(sql: "SELECT rowid FROM Memo_fts WHERE Memo_fts MATCH ? ORDER BY rowid", arguments: [word])
                    .map { try $0.get(0, as: Int.self) }
                let memoScanned = try conn.fetch(
                    sql: "SELECT id FROM Memo WHERE ' ' || \(self.memoText) || ' ' LIKE ? ORDER BY id", arguments: [pattern]
                ).map { try $0.get(0, as: Int.self) }
                guard memoIndexed == memoScanned else {
                    throw CompositionFailure(description: "\(name): Memo_fts finds \(memoIndexed) for '\(word)', a scan \(memoScanned)")
                }
                // No expired row is visible to generated reads.
                let visible = try NoteDAO(conn).fetchAll().compactMap(\.expiresAt) + PageDAO(conn).fetchAll().compactMap(\.expiresAt)
                    + TagDAO(conn).fetchAll().compactMap(\.expiresAt)
                if let expired = visible.first(where: { $0 <= now }) {
                    throw CompositionFailure(description: "\(name): a row that expired at \(expired) is visible at \(now)")
                }
                let starred = try NoteDAO(conn).starred(min: 3)
                let starredScan = try conn.fetchValue(
                    Int.self, sql: "SELECT count(*) FROM Note WHERE stars >= 3 AND (expiresAt IS NULL OR expiresAt > ?)", arguments: [now])
                guard starred == starredScan else {
                    throw CompositionFailure(description: "\(name): NoteDAO.starred = \(starred), a scan \(starredScan ?? -1)")
                }
                // The typed query and the view agree with the tables.
                let perNote = try ComposeQueries(conn).tagsPerNote().map { "\($0.noteId):\($0.tags)" }
                let perNoteScan = try conn.fetch(
                    sql: "SELECT id || ':' || (SELECT count(*) FROM Tag WHERE noteId = Note.id) FROM Note ORDER BY id"
                ).map { try $0.get(0, as: String.self) }
                guard perNote == perNoteScan else {
                    throw CompositionFailure(description: "\(name): tagsPerNote = \(perNote), a scan \(perNoteScan)")
                }
                let view = try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM liveNotes")
                let viewScan = try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM Note WHERE expiresAt IS NULL")
                guard view == viewScan else { throw CompositionFailure(description: "\(name): the view liveNotes disagrees") }
                try self.checkMarkers(conn, name, now: now)
            }
        }
        let (a, b) = (try snapshot(source), try snapshot(replica))
        guard a == b else {
            let differing = zip(Self.tables, zip(a, b)).filter { $0.1.0 != $0.1.1 }
            let rows = differing.map { table, pair in
                "\(table.0): source \(pair.0.filter { !pair.1.contains($0) }), replica \(pair.1.filter { !pair.0.contains($0) })"
            }
            throw CompositionFailure(description: "the replica differs from the source: \(rows.joined(separator: "; "))")
        }
        // The replica's observer delivers the state a fresh read sees (counted waits, not a
        // timer, so a stalled machine does not fail it).
        let fresh = try await replica.read { try ObservedState.read($0) }
        var waits = 0
        while observed.withLock({ $0 }) != fresh {
            waits += 1
            guard waits < 4_000 else {
                throw CompositionFailure(
                    description: "the replica's observer shows \(String(describing: observed.withLock { $0 })), a fresh read \(fresh)")
            }
            try await Task.sleep(nanoseconds: 500_000)
        }
        count("observed")
    }
}
#endif
