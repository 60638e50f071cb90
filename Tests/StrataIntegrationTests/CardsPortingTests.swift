import Foundation
import Strata
import Testing

/// The porting test of typed SQL: the queries of Cards.schema.yml are written the way a
/// spaced-repetition app (Anki) writes its card, deck, note and revlog SQL — snake_case
/// parameters, `cast(… as integer)`, `count()`, `exists(…)`, LEFT JOIN aggregates, no `AS`
/// added for Strata — compiled by the build plugin and run here on data with known results.
/// Their signatures are pinned in Tests/StrataCompilerTests/Fixtures/Queries/Cards.signatures.
@Suite struct CardsPortingTests {
    /// Three decks (the third empty), three notes (the third without cards), five cards, four
    /// review log entries.
    static func seeded() throws -> Database {
        let db = try Database.inMemory()
        try Cards.migrate(db)
        try db.write { conn in try conn.execute(sql: """
            INSERT INTO decks (id, name, mtime_secs, usn) VALUES (1, 'Default', 100, 0), (2, 'Spanish', 200, 0), (3, 'Empty', 300, 0);
            INSERT INTO notes (id, guid, mid, mod, usn, tags, flds, sfld, csum) VALUES
              (10, 'g10', 1, 1000, 0, '', 'a', 'a', 1), (11, 'g11', 1, 1100, 1, 'verb', 'b', 'b', 2), (12, 'g12', 1, 1200, 2, '', 'c', 'c', 3);
            INSERT INTO cards (id, nid, did, ord, mod, usn, type, queue, due, ivl, factor, reps, lapses, odue, odid) VALUES
              (100, 10, 1, 0, 1000, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0),
              (101, 10, 1, 1, 1000, 0, 2, 2, 50, 30, 2500, 5, 1, 0, 0),
              (102, 11, 1, 0, 1000, 0, 2, 2, 120, 3, 2300, 2, 0, 0, 0),
              (103, 11, 2, 1, 1000, 0, 2, 2, 2000000000, 10, 2600, 7, 2, 0, 0),
              (104, 11, 2, 2, 1000, 0, 1, 1, 60, 0, 0, 1, 0, 0, 0);
            INSERT INTO revlog (id, cid, usn, ease, ivl, lastIvl, factor, time, type) VALUES
              (1000, 101, 0, 3, 30, 10, 2500, 8000, 1), (2000, 102, 0, 2, 3, 1, 2300, 12000, 1),
              (3000, 101, 0, 4, 30, 30, 2500, 5000, 1), (4000, 104, 0, 1, 0, 0, 0, 20000, 0);
            """) }
        return db
    }

    @Test func countsAndExistsAreBareValuesOfExactlyOneRow() throws {
        let db = try Self.seeded()
        try db.read { conn throws in
            let q = CardsQueries(conn)
            let count: Int = try q.cardCount()
            #expect(count == 5)
            let inDeck: Int = try q.cardCountInDeck(did: 1)
            #expect(inDeck == 3)
            #expect(try q.cardCountInDeck(did: 3) == 0)
            let exists: Bool = try q.noteExists(noteId: 10)
            #expect(exists)
            #expect(try !q.noteExists(noteId: 99))
            #expect(try q.deckHasDueCards(did: 1, queue: 2, dayCutoff: 100))
            #expect(try !q.deckHasDueCards(did: 2, queue: 2, dayCutoff: 100))
            let distinct: Int = try q.distinctCardsReviewed(cutoff: 0)
            #expect(distinct == 3)
            #expect(try q.notesWithoutCards() == [12])
        }
    }

    @Test func aggregatesOfOneRowKeepTheirNulls() throws {
        let db = try Self.seeded()
        try db.read { conn throws in
            let q = CardsQueries(conn)
            let counts: CardsQueries.DueCountsRow = try q.dueCounts(newQueue: 0, reviewQueue: 2, dayCutoff: 100, did: 1)
            #expect(counts == .init(newCount: 1, reviewCount: 1))
            #expect(try q.dueCounts(newQueue: 0, reviewQueue: 2, dayCutoff: 100, did: 3) == .init(newCount: nil, reviewCount: nil))
            let maxDue: Int? = try q.maxDue(did: 1, queue: 2)
            #expect(maxDue == 120)
            #expect(try q.maxDue(did: 3, queue: 2) == nil, "MAX over no rows is NULL: one row holding nil")
            let range: CardsQueries.RevlogRangeRow = try q.revlogRange()
            #expect(range == .init(minId: 1000, maxId: 4000))
            let today = try q.studiedToday(cutoff: 1500)
            #expect(today.count == 3)
            #expect(today.sumTime == 37_000)
            #expect(try q.studiedToday(cutoff: 9999) == .init(count: 0, sumTime: nil))
            let mature: Int? = try q.matureCount(matureIvl: 21)
            #expect(mature == 1)
        }
    }

    @Test func derivedNamesAndLeftJoinAggregates() throws {
        let db = try Self.seeded()
        try db.read { conn throws in
            let q = CardsQueries(conn)
            #expect(try q.cardsPerDeck() == [.init(did: 1, count: 3), .init(did: 2, count: 2)])
            let summaries = try q.deckSummaries()
            #expect(summaries == [
                .init(id: 1, name: "Default", countId: 3, sumReps: 7, maxDue: 120),
                .init(id: 3, name: "Empty", countId: 0, sumReps: nil, maxDue: nil),
                .init(id: 2, name: "Spanish", countId: 2, sumReps: 8, maxDue: 2_000_000_000),
            ])
            #expect(try q.noteModTimes(minId: 10) == [.init(id: 11, mod: 1100, usn: 1), .init(id: 12, mod: 1200, usn: 2)])
            #expect(try q.easeFactors(minFactor: 20) == [.init(id: 101, factor: -2500), .init(id: 103, factor: -2600)])
        }
    }

    @Test func snakeCaseParametersInferredFromArithmeticAndRanges() throws {
        let db = try Self.seeded()
        try db.read { conn throws in
            let q = CardsQueries(conn)
            #expect(try q.cardIdsOfNotes(noteIds: [10]) == [100, 101])
            #expect(try q.cardIdsOfNotes(noteIds: []) == [])
            #expect(try q.dueCardIds(did: 1, queue: 2, today: 200, limit: 10) == [101, 102])
            #expect(try q.dueCardIds(did: 1, queue: 2, today: 200, limit: 1) == [101])
            #expect(try q.overdueDays(today: 100, minDays: 10) == [101])
            #expect(try q.cardsDueBetween(low: 50, high: 120) == [101, 102, 104])
        }
    }

    @Test func writes() throws {
        let db = try Self.seeded()
        try db.write { conn throws in
            let q = CardsQueries(conn)
            #expect(try q.fixDueOther(today: 100, mtime: 5000, usn: -1) == 1)
            #expect(try q.setNoteTags(tags: "leech", mtime: 6000, usn: -1, noteId: 11) == 1)
            #expect(try q.logReview(id: 5000, cid: 100, usn: -1, ease: 3, ivl: 1, lastIvl: 0, factor: 2500, takenMillis: 4000, kind: 0) == 1)
            #expect(try q.deleteRevlogOfCards(cardIds: [101]) == 2)
        }
        try db.read { conn throws in
            let card = try #require(try CardDAO(conn).find(id: 103))
            #expect(card.due == 110 && card.mod == 5000 && card.usn == -1)
            #expect(try NoteDAO(conn).find(id: 11)?.tags == "leech")
            #expect(try CardsQueries(conn).studiedToday(cutoff: 0) == .init(count: 3, sumTime: 36_000))
        }
    }
}
