import Foundation
import Strata
import Testing

/// Not `Sendable`: made by the caller and handed to the async `read`/`write` (`sending`).
final class Draft {
    var bodies: [String] = []
}

/// A main-actor type that hands values it made to the database's thread and gets
/// non-Sendable results back.
@MainActor
final class NotesScreen {
    let db: Database
    var bodies: [String] = []

    init(db: Database) { self.db = db }

    func save(_ texts: [String]) async throws {
        let draft = Draft()
        draft.bodies = texts
        try await db.write { conn in
            for body in draft.bodies { try conn.execute(sql: "INSERT INTO note(body) VALUES (?)", arguments: [body]) }
        }
    }

    func reload() async throws {
        let loaded: Draft = try await db.read { conn in
            let draft = Draft()
            draft.bodies = try conn.fetch(sql: "SELECT body FROM note ORDER BY rowid").map { try $0.get("body", as: String.self) }
            return draft
        }
        bodies = loaded.bodies
    }
}

actor NotesCounter {
    let db: Database
    init(db: Database) { self.db = db }
    func count() async throws -> Int {
        try await db.read { conn in try conn.fetch(sql: "SELECT count(*) AS n FROM note")[0].get("n", as: Int.self) }
    }
}

/// The async `Database.read`/`write` compile and run from the main actor, an actor and a
/// nonisolated function; their closures may capture non-Sendable values the caller made and
/// return non-Sendable ones (`sending`), and still run on the database's threads.
struct AsyncIsolationTests {
    @MainActor @Test func fromTheMainActorAnActorAndANonisolatedFunction() async throws {
        let db = try Database.inMemory()
        try await db.write { conn in try conn.execute(sql: "CREATE TABLE note(body TEXT NOT NULL)") }
        let screen = NotesScreen(db: db)
        try await screen.save(["a", "b"])
        try await screen.reload()
        #expect(screen.bodies == ["a", "b"])
        #expect(try await NotesCounter(db: db).count() == 2)
        #expect(try await Self.firstBody(db) == "a")
    }

    static func firstBody(_ db: Database) async throws -> String? {
        let draft = Draft()
        let first = try await db.read { conn in
            draft.bodies = try conn.fetch(sql: "SELECT body FROM note ORDER BY rowid LIMIT 1").map { try $0.get("body", as: String.self) }
            return draft
        }
        return first.bodies.first
    }
}
