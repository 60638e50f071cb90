import Foundation
import Strata
import Testing

/// The typed queries of Music.schema.yml (compiled by the build plugin), each run on data with
/// known results. Their signatures are pinned in
/// Tests/StrataCompilerTests/Fixtures/Queries/Music.signatures.
@Suite struct TypedQueryTests {
    static let codes = (1...5).map { UUID(uuidString: "00000000-0000-0000-0000-00000000000\($0)")! }

    /// A migrated in-memory Music database with three artists, three albums, five tracks,
    /// four invoice lines and four employees.
    static func seeded() throws -> Database {
        let db = try Database.inMemory()
        try Music.migrate(db)
        try db.write { conn throws in
            for (name, country) in [("Alpha", "UK"), ("Beta", nil), ("Gamma", "US")] {
                try ArtistDAO(conn).insert(Artist(name: name, country: country))
            }
            try AlbumDAO(conn).insert(Album(title: "First", artistId: 1, releasedAt: date("2020-01-01 00:00:00"), label: .indie))
            try AlbumDAO(conn).insert(Album(title: "Second", artistId: 1, label: .major))
            try AlbumDAO(conn).insert(Album(title: "Third", artistId: 2, label: .indie))
            let tracks: [(String, Int?, Int, Double, Track.Genre, [String])] = [
                ("One", 1, 400_000, 1.0, .rock, ["a"]), ("Two", 1, 200_000, 2.0, .jazz, []),
                ("Three", 2, 100_000, 0.5, .rock, ["b", "c"]), ("Four", 3, 350_000, 1.5, .pop, []),
                ("Five", nil, 0, 0.99, .jazz, []),
            ]
            for (index, track) in tracks.enumerated() {
                try TrackDAO(conn).insert(Track(name: track.0, albumId: track.1, milliseconds: track.2, unitPrice: track.3,
                                                genre: track.4, code: codes[index], tags: track.5))
            }
            for (trackId, price, quantity) in [(1, 1.0, 2), (2, 2.0, 1), (4, 1.5, 4), (3, 0.5, 0)] {
                try InvoiceLineDAO(conn).insert(InvoiceLine(trackId: trackId, unitPrice: price, quantity: quantity))
            }
            for (name, manager) in [("Boss", nil), ("Mid", 1), ("Low", 2), ("Other", 1)] as [(String, Int?)] {
                try EmployeeDAO(conn).insert(Employee(name: name, managerId: manager))
            }
        }
        return db
    }

    @Test func innerJoinGroupByAndAggregates() throws {
        let db = try Self.seeded()
        let rows: [MusicQueries.TopArtistsRow] = try db.read { conn in try MusicQueries(conn).topArtists(limit: 3) }
        #expect(rows == [.init(artist: "Beta", tracks: 1, revenue: 6.0), .init(artist: "Alpha", tracks: 3, revenue: 4.0)])
        #expect(try db.read { conn in try MusicQueries(conn).topArtists(limit: 1) }.map(\.artist) == ["Beta"])
    }

    @Test func leftJoinMakesTheRightSideOptional() throws {
        let db = try Self.seeded()
        let albums = try db.read { conn in try MusicQueries(conn).albumsWithArtists() }
        #expect(albums.map(\.title) == ["First", "Second", "Third"])
        let artist: String? = albums[2].artistName
        #expect(artist == "Beta")
    }

    @Test func selfJoin() throws {
        let db = try Self.seeded()
        let rows = try db.read { conn in try MusicQueries(conn).employeesWithManagers() }
        #expect(rows.map(\.employee) == ["Boss", "Mid", "Low", "Other"])
        #expect(rows.map(\.manager) == [nil, "Boss", "Mid", "Boss"])
    }

    @Test func havingAndAverage() throws {
        let db = try Self.seeded()
        let rows = try db.read { conn in try MusicQueries(conn).artistsWithTracks(minTracks: 2) }
        #expect(rows.count == 1)
        #expect(rows.first?.name == "Alpha")
        #expect(rows.first?.trackCount == 3)
        let average: Double = rows.first?.averageLength ?? 0
        #expect(abs(average - 700_000.0 / 3) < 0.001)
        #expect(try db.read { conn in try MusicQueries(conn).artistsWithTracks(minTracks: 1) }.map(\.name) == ["Alpha", "Beta"])
    }

    @Test func cteAndRecursiveCTE() throws {
        let db = try Self.seeded()
        let long = try db.read { conn in try MusicQueries(conn).longTracks(ms: 300_000) }
        #expect(long == [.init(name: "Four", milliseconds: 350_000), .init(name: "One", milliseconds: 400_000)])
        let chain = try db.read { conn in try MusicQueries(conn).managementChain() }
        #expect(chain.map(\.name) == ["Boss", "Mid", "Other", "Low"])
        #expect(chain.map(\.depth) == [0, 1, 1, 2])
    }

    @Test func windowFunctions() throws {
        let db = try Self.seeded()
        let rows = try db.read { conn in try MusicQueries(conn).rankedTracks() }
        #expect(rows.map(\.position) == [3, 1, 5, 2, 4])
        #expect(rows.map(\.previous) == [nil, "One", "Two", "Three", "Four"])
    }

    @Test func subqueryInFromAndInWhere() throws {
        let db = try Self.seeded()
        let lengths = try db.read { conn in try MusicQueries(conn).albumLengths() }
        #expect(lengths.map(\.albumId) == [nil, 1, 2, 3])
        #expect(lengths.map(\.total) == [0, 600_000, 100_000, 350_000])
        #expect(try db.read { conn in try MusicQueries(conn).pricierThanAverage() } == ["Four", "Two"])
    }

    @Test func unionDistinctAndSingleColumns() throws {
        let db = try Self.seeded()
        let names: [String] = try db.read { conn in try MusicQueries(conn).allNames() }
        #expect(names == ["Alpha", "Beta", "First", "Gamma", "Second", "Third"])
        let genres: [Track.Genre] = try db.read { conn in try MusicQueries(conn).genres() }
        #expect(genres == [.jazz, .pop, .rock])
        let countries: [String?] = try db.read { conn in try MusicQueries(conn).countries() }
        #expect(countries == ["UK", nil, "US"])
    }

    @Test func tableStarOverAJoinIsTheRecord() throws {
        let db = try Self.seeded()
        let tracks: [Track] = try db.read { conn in try MusicQueries(conn).tracksOfArtist(artistId: 1) }
        #expect(tracks.map(\.name) == ["One", "Two", "Three"])
        #expect(tracks.map(\.code) == Array(Self.codes.prefix(3)))
        #expect(tracks[2].tags == ["b", "c"])
    }

    @Test func returnsOne() throws {
        let db = try Self.seeded()
        let beta: MusicQueries.ArtistRow? = try db.read { conn in try MusicQueries(conn).artist(id: 2) }
        #expect(beta == .init(name: "Beta", country: nil))
        #expect(try db.read { conn in try MusicQueries(conn).artist(id: 99) } == nil)
        let highest: Double? = try db.read { conn in try MusicQueries(conn).highestPrice() }
        #expect(highest == 2.0)
        let empty = try Database.inMemory()
        try Music.migrate(empty)
        #expect(try empty.read { conn in try MusicQueries(conn).highestPrice() } == nil, "MAX over no rows is NULL: flattened to nil")
        let totals = try db.read { conn in try MusicQueries(conn).totals() }
        #expect(totals == .init(trackCount: 5, lastName: "Gamma"))
    }

    @Test func existsCaseAndCoalesce() throws {
        let db = try Self.seeded()
        let albums = try db.read { conn in try MusicQueries(conn).artistsWithAlbums() }
        #expect(albums.map(\.hasAlbums) == [true, true, false])
        let lengths = try db.read { conn in try MusicQueries(conn).trackLengths() }
        #expect(lengths.map(\.length) == ["long", "short", "short", "long", "empty"])
        #expect(lengths.map(\.longOnly) == ["long", nil, nil, "long", nil])
        let countries = try db.read { conn in try MusicQueries(conn).artistCountries() }
        #expect(countries.map(\.country) == ["UK", "unknown", "US"])
    }

    @Test func listParameterWithZeroOneAndManyElements() throws {
        let db = try Self.seeded()
        try db.read { conn throws in
            let queries = MusicQueries(conn)
            #expect(try queries.tracksByIds(ids: [], minPrice: 0) == [])
            #expect(try queries.tracksByIds(ids: [3], minPrice: 0) == ["Three"])
            #expect(try queries.tracksByIds(ids: [1, 2, 4], minPrice: 1.5) == ["Two", "Four"])
            #expect(try queries.tracksByIds(ids: [4, 2, 1, 99], minPrice: 0) == ["One", "Two", "Four"])
            #expect(try queries.tracksByIds(ids: [3], minPrice: 0) == ["Three"], "the statement of each length is reused")
        }
    }

    @Test func writesWithAndWithoutReturning() throws {
        let db = try Self.seeded()
        try db.write { conn throws in
            let queries = MusicQueries(conn)
            #expect(try queries.addArtist(name: "Delta", country: nil) == 1)
            #expect(try queries.addArtistReturningId(name: "Epsilon") == 5)
            #expect(try queries.repriceGenre(factor: 2, genre: .jazz) == 2)
            #expect(try queries.moveArtist(country: "FR", id: 2) == [Artist(id: 2, name: "Beta", country: "FR")])
            #expect(try queries.deleteEmptyLines() == 1)
            #expect(try queries.deleteLinesOfTrack(trackId: 1) == [1])
            #expect(try queries.deleteLinesOfTrack(trackId: 1) == [])
        }
        #expect(try db.read { conn in try ArtistDAO(conn).count() } == 5)
        #expect(try db.read { conn in try TrackDAO(conn).find(id: 2)?.unitPrice } == 4.0)
        #expect(try db.read { conn in try InvoiceLineDAO(conn).count() } == 2)
    }

    @Test func enumDateUUIDAndJSONThroughAJoin() throws {
        let db = try Self.seeded()
        let rows = try db.read { conn in try MusicQueries(conn).trackDetails() }
        #expect(rows.map(\.genre) == [.rock, .jazz, .rock, .pop])
        #expect(rows.map(\.code) == Array(Self.codes.prefix(4)))
        #expect(rows.map(\.tags) == [["a"], [], ["b", "c"], []])
        #expect(rows.map(\.releasedAt) == [date("2020-01-01 00:00:00"), date("2020-01-01 00:00:00"), nil, nil])
        #expect(rows.map(\.label) == [.indie, .indie, .major, .indie])
    }

    @Test func castArithmeticAndStringFunctions() throws {
        let db = try Self.seeded()
        let first = try #require(try db.read { conn in try MusicQueries(conn).trackSeconds() }.first)
        #expect(first == .init(name: "One", seconds: 400, doubled: 800_000, weighted: 2.0, nameLength: 3, shout: "ONE!"))
        let matching = try db.read { conn in try MusicQueries(conn).tracksInGenres(genre: .pop, pattern: "T%") }
        #expect(matching == ["Two", "Three", "Four"])
        #expect(try db.read { conn in try MusicQueries(conn).rawLabel() } == ["a", nil, "b", nil, nil])
    }

    @Test func keywordsAndBodyNamesAsQueryAndParameterNames() throws {
        let db = try Self.seeded()
        let names = try db.read { conn in try MusicQueries(conn).where(statement: 1, value: [1, 2, 3], stored: 150_000) }
        #expect(names == ["One", "Two"])
    }

    @Test func aNullInANonOptionalResultThrowsNamingQueryAndColumn() throws {
        let db = try Self.seeded()
        do {
            _ = try db.read { conn in try MusicQueries(conn).missingTag() }
            Issue.record("a NULL reached a non-optional String without an error")
        } catch let error as StrataError {
            #expect(error.kind == .decoding)
            #expect(error.message.contains("missingTag") && error.message.contains("tag"))
        }
    }
}
