import Foundation
import Strata
import StrataTestSupport
import Testing
@testable import StrataCompiler

/// The adoption corpus's real-world shapes (Northwind, Sakila, Core Data, GeoPackage, WordPress,
/// Anki), read end to end: `strata introspect` wrote the schema files beside this file (checked
/// in with the first migration `strata migration new` wrote; compiled by the build plugin into
/// this target), each shape's database is built from its SQL, baselined, and every row of every
/// table is read through the generated DAOs and compared, value by value, with what SQLite holds
/// (dates in their `dateFormat:`, UUIDs from text or 16-byte blobs). The evolution half of the
/// end-to-end run (add a column, rename one, migrate, introspect again) is
/// `StrataReliabilityTests.AdoptionCorpusTests`, through the real CLI.
///
/// `STRATA_UPDATE_FIXTURES=1` rewrites the schema files (then run `strata migration new
/// <Name>.schema.yml --name initial` after deleting the old first migration).
@Suite struct CorpusShapeTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    static func schemaPath(_ shape: AdoptionCorpus.Shape) -> String {
        directory.appendingPathComponent("\(shape.schemaName).schema.yml").path
    }

    /// A fresh directory holding the shape's database, built from its SQL (rollback journal).
    static func makeDatabase(_ shape: AdoptionCorpus.Shape) throws -> (directory: URL, path: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-shape-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("\(shape.rawValue).sqlite").path
        let db = try Database(path: path)
        try db.writeWithoutTransaction { conn in
            try conn.execute(sql: shape.sql)
            try conn.execute(sql: "PRAGMA journal_mode = DELETE")
        }
        return (directory, path)
    }

    /// The shape's database, baselined with the checked-in first migration.
    static func adopted(_ shape: AdoptionCorpus.Shape) throws -> (directory: URL, db: Database) {
        let (directory, path) = try makeDatabase(shape)
        let db = try Database(path: path)
        try MigrationBaseline.baseline(db, migrations: try MigrationFiles.load(schemaPath: schemaPath(shape)))
        return (directory, db)
    }

    /// The checked-in schema is what introspect writes for the database the SQL builds, and it
    /// passes `strata check`: a change to introspect (or to the SQL) that changes the file fails here.
    @Test(arguments: AdoptionCorpus.Shape.allCases)
    func introspectWritesTheCheckedInSchema(_ shape: AdoptionCorpus.Shape) throws {
        let (directory, path) = try Self.makeDatabase(shape)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try DatabaseAdopter.introspect(databasePath: path, databaseName: shape.schemaName)
        let schemaURL = URL(fileURLWithPath: Self.schemaPath(shape))
        if ProcessInfo.processInfo.environment["STRATA_UPDATE_FIXTURES"] == "1" {
            try result.yaml.write(to: schemaURL, atomically: true, encoding: .utf8)
        }
        #expect(result.yaml == (try String(contentsOf: schemaURL, encoding: .utf8)))
        let check = SchemaLoader.check(path: schemaURL.path)
        #expect(check.diagnostics.isEmpty, "\(check.diagnostics.map(\.description))")
        // The checked-in first migration is the one `strata migration new` writes for the file.
        let schema = try SchemaLoader.load(path: schemaURL.path)
        let plan = try MigrationPlanner.plan(schema: schema, migrations: [])
        let rendered = MigrationRenderer.render(plan, version: 1, name: "initial", schemaFile: schemaURL.lastPathComponent)
        let migrations = try MigrationFiles.load(schemaPath: schemaURL.path)
        #expect(migrations.map(\.version) == [1])
        #expect(migrations.first?.sql == rendered)
    }

    /// Every table's DAO, as the build plugin generated it from the checked-in schema.
    static func daos(_ shape: AdoptionCorpus.Shape, _ conn: Connection) -> [any RecordDAO] {
        switch shape {
        case .northwind:
            [
                CategoriesDAO(conn), CustomerCustomerDemoDAO(conn), CustomerDemographicsDAO(conn), CustomersDAO(conn), EmployeesDAO(conn),
                EmployeeTerritoriesDAO(conn), OrderDetailsDAO(conn), OrdersDAO(conn), ProductsDAO(conn), RegionsDAO(conn), ShippersDAO(conn),
                SuppliersDAO(conn), TerritoriesDAO(conn),
            ]
        case .sakila:
            [
                ActorDAO(conn), CountryDAO(conn), CityDAO(conn), AddressDAO(conn), LanguageDAO(conn), CategoryDAO(conn), FilmDAO(conn),
                FilmActorDAO(conn), FilmCategoryDAO(conn), FilmTextDAO(conn), StoreDAO(conn), StaffDAO(conn), CustomerDAO(conn),
                InventoryDAO(conn), RentalDAO(conn), PaymentDAO(conn),
            ]
        case .coreData:
            [ZfolderDAO(conn), ZnoteDAO(conn), ZPrimarykeyDAO(conn), ZMetadataDAO(conn)]
        case .geoPackage:
            [
                GpkgSpatialRefSysDAO(conn), GpkgContentsDAO(conn), GpkgGeometryColumnsDAO(conn), GpkgTileMatrixSetDAO(conn),
                GpkgTileMatrixDAO(conn), PlacesDAO(conn),
            ]
        case .wordPress:
            [MysqlDataTypesCacheDAO(conn), WpUsersDAO(conn), WpUsermetaDAO(conn), WpPostsDAO(conn), WpOptionsDAO(conn)]
        case .anki:
            [
                ColDAO(conn), NotesDAO(conn), CardsDAO(conn), RevlogDAO(conn), DeckConfigDAO(conn), ConfigDAO(conn), FieldsDAO(conn),
                NotetypesDAO(conn), DecksDAO(conn), TagsDAO(conn), GravesDAO(conn),
            ]
        }
    }

    @Test(arguments: AdoptionCorpus.Shape.allCases)
    func everyRowOfEveryTableReadsThroughTheGeneratedDAOs(_ shape: AdoptionCorpus.Shape) throws {
        let (directory, db) = try Self.adopted(shape)
        defer { try? FileManager.default.removeItem(at: directory) }
        let schema = try SchemaLoader.load(path: Self.schemaPath(shape))
        #expect(try generatedMigrate(shape, db).isEmpty, "the baselined database is up to date")
        try db.read { conn throws in
            let daos = Self.daos(shape, conn)
            // Every table of the schema has its DAO here.
            #expect(
                Set(daos.map { SQLName.fold(Self.tableName(of: $0)) }) == Set(schema.tables.map { SQLName.fold($0.sqlName) }),
                "the DAO list and the schema's tables differ")
            var rows = 0
            for dao in daos {
                guard let table = schema.tables.first(where: { SQLName.same($0.sqlName, Self.tableName(of: dao)) }) else { continue }
                let read = try Self.read(dao)
                let raw = try Self.raw(table, conn)
                #expect(read.count == raw.count, "\(table.sqlName): \(read.count) records, \(raw.count) rows")
                #expect(try Self.count(dao) == raw.count)
                #expect(read.sorted() == raw.sorted(), "\(table.sqlName): the records differ from the rows")
                if read.sorted() != raw.sorted() {
                    for (record, row) in zip(read.sorted(), raw.sorted()) where record != row {
                        Issue.record("\(table.sqlName):\n  read: \(record)\n  held: \(row)")
                        break
                    }
                }
                rows += raw.count
            }
            #expect(rows > 0)
            // Reading means something: every table has rows (but those the original leaves empty).
            for dao in daos {
                #expect(try Self.count(dao) > 0 || Self.emptyTables(shape).contains(Self.tableName(of: dao)), "\(Self.tableName(of: dao)) has no rows to read")
            }
        }
    }

    // MARK: What each shape is about, read through its DAOs

    /// Core Data's dates are seconds since 2001-01-01 (`dateFormat: referenceDate`): they read as
    /// the instants Core Data wrote (as Unix seconds they would be 31 years early), and a record
    /// written through the DAO stores them the same way.
    @Test func coreDataDatesReadAsReferenceDateSeconds() throws {
        let (directory, db) = try Self.adopted(.coreData)
        defer { try? FileManager.default.removeItem(at: directory) }
        try db.read { conn throws in
            let folders = try ZfolderDAO(conn).fetchAll(orderBy: "Z_PK")
            #expect(abs((folders.first?.zcreationdate ?? .distantPast).timeIntervalSinceReferenceDate - 754_123_456.789) < 1e-6)
            #expect(folders.map(\.zname) == ["Inbox", "Work"])
            let notes = try ZnoteDAO(conn).fetchAll(orderBy: "Z_PK")
            #expect(notes.map(\.zmodificationdate) == [Date(timeIntervalSinceReferenceDate: 754_123_600.25), nil, Date(timeIntervalSinceReferenceDate: 754_300_001)])
            #expect(notes.first?.zidentifier == Data([0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef]))
        }
        let written = Date(timeIntervalSinceReferenceDate: 800_000_000.5)
        try db.write { conn in _ = try ZnoteDAO(conn).insert(Znote(zPk: 4, zcreationdate: written, ztitle: "New")) }
        let stored = try db.read { conn in try conn.fetchOne(sql: "SELECT ZCREATIONDATE, typeof(ZCREATIONDATE) FROM ZNOTE WHERE Z_PK = 4") }
        #expect(stored?[0] == .real(800_000_000.5))
        #expect(try db.read { conn in try ZnoteDAO(conn).fetchOne(where: "Z_PK = 4")?.zcreationdate } == written)
    }

    /// Anki's names are `COLLATE NOCASE` (its `unicase`): the DAOs compare them ignoring case,
    /// and the unique indexes over them refuse a name that differs only in case.
    @Test func ankiNamesCompareIgnoringCase() throws {
        let (directory, db) = try Self.adopted(.anki)
        defer { try? FileManager.default.removeItem(at: directory) }
        try db.read { conn throws in
            #expect(try DecksDAO(conn).fetchAll(where: "name = ?", ["DEFAULT"]).map(\.id) == [1])
            #expect(try DecksDAO(conn).fetchAll(orderBy: "name").map(\.name) == ["Default", "Español::Verbos"])
            #expect(try TagsDAO(conn).fetchOne(where: "tag = ?", ["SPANISH"])?.tag == "spanish")
            #expect(try FieldsDAO(conn).count(where: "name = ? AND ntid = 1", ["FRONT"]) == 1)
            // The partial index's rows: cards whose odid is not 0.
            #expect(try CardsDAO(conn).fetchAll(where: "odid != 0").map(\.id) == [2])
        }
        #expect(throws: StrataError.self) {
            try db.write { conn in _ = try DecksDAO(conn).insert(Decks(id: 3, name: "default", mtimeSecs: 0, usn: 0, common: Data(), kind: Data())) }
        }
        #expect(throws: StrataError.self) {
            try db.write { conn in _ = try TagsDAO(conn).insert(Tags(tag: "Spanish", usn: 0, collapsed: false)) }
        }
        #expect(try db.read { conn in try DecksDAO(conn).count() } == 2)
    }

    /// Sakila's `numeric` keys, referenced by `INT` columns, read as `Int` at both ends; the
    /// circular store ↔ staff pair and the views over them read.
    @Test func sakilaKeysAreIntAtBothEnds() throws {
        let (directory, db) = try Self.adopted(.sakila)
        defer { try? FileManager.default.removeItem(at: directory) }
        try db.read { conn throws in
            let actors: [Int] = try ActorDAO(conn).fetchAll(orderBy: "actor_id").map(\.actorId)
            #expect(actors == [1, 2])
            let films: [Int] = try FilmActorDAO(conn).fetchAll(where: "actor_id = ?", [2], orderBy: "film_id").map(\.filmId)
            #expect(films == [1, 2])
            #expect(try PaymentDAO(conn).fetchAll(orderBy: "payment_id").map(\.amount) == [2.99, 0.99])
            #expect(try RentalDAO(conn).fetchOne(where: "rental_id = 1")?.rentalDate == DateFormat.date(from: "2005-05-24 22:53:30"))
            #expect(try StoreDAO(conn).fetchAll().map(\.managerStaffId) == [1])
            #expect(try conn.fetchValue(Double.self, sql: "SELECT total_sales FROM sales_by_store") == 2.99)
        }
    }

    /// Northwind's dates are text in two forms; its bracketed, spaced table names read.
    @Test func northwindDatesAndSpacedNamesRead() throws {
        let (directory, db) = try Self.adopted(.northwind)
        defer { try? FileManager.default.removeItem(at: directory) }
        try db.read { conn throws in
            let orders = try OrdersDAO(conn).fetchAll(orderBy: "OrderID")
            #expect(orders.map(\.orderDate) == [DateFormat.date(from: "2016-07-04"), DateFormat.date(from: "2016-07-05 00:00:00")])
            #expect(orders.map(\.shippedDate) == [DateFormat.date(from: "2016-07-16"), nil])
            #expect(try OrderDetailsDAO(conn).fetchAll(where: "OrderID = 10248").count == 2)
            #expect(try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM [Order Details Extended]") == 3)
        }
    }

    /// A GeoPackage keeps its `application_id` through the baseline, and its `RAISE` triggers
    /// guard writes through the DAOs.
    @Test func geoPackageKeepsItsApplicationIdAndTriggers() throws {
        let (directory, db) = try Self.adopted(.geoPackage)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try db.read { conn in try conn.fetchValue(Int.self, sql: "PRAGMA application_id") } == 1_196_444_487)
        #expect {
            try db.write { conn in
                _ = try GpkgTileMatrixDAO(conn).insert(
                    GpkgTileMatrix(tableName: "places", zoomLevel: -1, matrixWidth: 1, matrixHeight: 1, tileWidth: 256, tileHeight: 256, pixelXSize: 1, pixelYSize: 1))
            }
        } throws: { error in
            "\(error)".contains("zoom_level cannot be less than 0")
        }
        try db.write { conn in
            _ = try GpkgTileMatrixDAO(conn).insert(
                GpkgTileMatrix(tableName: "places", zoomLevel: 0, matrixWidth: 1, matrixHeight: 1, tileWidth: 256, tileHeight: 256, pixelXSize: 1, pixelYSize: 1))
        }
        #expect(try db.read { conn in try GpkgTileMatrixDAO(conn).count() } == 1)
    }

    /// WordPress's column named `table` and its typographic quotes read.
    @Test func wordPressReads() throws {
        let (directory, db) = try Self.adopted(.wordPress)
        defer { try? FileManager.default.removeItem(at: directory) }
        try db.read { conn throws in
            #expect(try MysqlDataTypesCacheDAO(conn).fetchAll().map(\.table) == ["wp_users", "wp_users"])
            #expect(try WpOptionsDAO(conn).fetchOne(where: "option_name = 'blogname'")?.optionValue == "My “Site”")
        }
    }

    /// Tables a shape leaves empty, as the original does.
    static func emptyTables(_ shape: AdoptionCorpus.Shape) -> Set<String> {
        switch shape {
        case .geoPackage: ["gpkg_tile_matrix_set", "gpkg_tile_matrix"]
        default: []
        }
    }

    func generatedMigrate(_ shape: AdoptionCorpus.Shape, _ db: Database) throws -> [Migration] {
        switch shape {
        case .northwind: try Northwind.migrate(db)
        case .sakila: try Sakila.migrate(db)
        case .coreData: try CoreDataNotes.migrate(db)
        case .geoPackage: try GeoPackage.migrate(db)
        case .wordPress: try WordPress.migrate(db)
        case .anki: try AnkiCollection.migrate(db)
        }
    }

    static func tableName(of dao: any RecordDAO) -> String {
        func name<D: RecordDAO>(_ dao: D) -> String { D.tableSQLName }
        // `"name"`, as the DDL quotes it.
        let quoted = name(dao)
        return String(quoted.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"")
    }

    static func count(_ dao: any RecordDAO) throws -> Int {
        func count<D: RecordDAO>(_ dao: D) throws -> Int { try dao.count() }
        return try count(dao)
    }

    /// The DAO's records, each as `property=value` lines (``canonical(_:)``).
    static func read(_ dao: any RecordDAO) throws -> [String] {
        func read<D: RecordDAO>(_ dao: D) throws -> [String] {
            try dao.fetchAll().map { record in
                Mirror(reflecting: record).children.compactMap { child in child.label.map { "\($0)=\(canonical(child.value))" } }
                    .sorted().joined(separator: "\n")
            }
        }
        return try read(dao)
    }

    /// The table's rows as SQLite holds them, each value made into what the column's type and
    /// `dateFormat:` say it is, written as ``read(_:)`` writes a record.
    static func raw(_ table: Table, _ conn: Connection) throws -> [String] {
        let columns = table.columns
        let select = columns.map { column -> String in
            let name = SQLRenderer.quoteIdentifier(column.sqlName)
            switch column.type {
            case .text, .enumeration, .json: return "CAST(\(name) AS TEXT)"
            case .blob: return "CAST(\(name) AS BLOB)"
            default: return name
            }
        }
        let sql = "SELECT \(select.joined(separator: ", ")) FROM \(SQLRenderer.quoteIdentifier(table.sqlName))"
        return try conn.fetch(sql: sql).map { row in
            columns.indices.map { index in "\(columns[index].name)=\(canonical(expected(row[index], columns[index])))" }
                .sorted().joined(separator: "\n")
        }
    }

    /// What a value SQLite holds reads as, by the column's schema type: the oracle, written here
    /// from the documented formats, not by the generated code.
    static func expected(_ value: DatabaseValue, _ column: Column) -> Any? {
        func number() -> Double? {
            switch value {
            case .integer(let i): Double(i)
            case .real(let d): d
            default: nil
            }
        }
        switch (column.type, value) {
        case (_, .null): return nil
        case (.int, .integer(let i)): return Int(i)
        case (.int, .real(let d)): return Int(d)
        case (.double, _) where number() != nil: return number()
        case (.bool, _) where number() != nil: return number() != 0
        case (.text, .text(let s)), (.enumeration, .text(let s)), (.json, .text(let s)): return s
        case (.blob, .blob(let d)): return d
        case (.date, .text(let s)): return DateFormat.date(from: s)
        case (.date, _) where number() != nil:
            let n = number() ?? 0
            switch column.dateFormat ?? .iso8601 {
            case .iso8601, .unixSeconds: return Date(timeIntervalSince1970: n)
            case .unixMilliseconds: return Date(timeIntervalSince1970: n / 1000)
            case .julianDay: return Date(timeIntervalSince1970: (n - 2_440_587.5) * 86_400)
            case .referenceDate: return Date(timeIntervalSinceReferenceDate: n)
            }
        case (.uuid, .text(let s)): return UUID(uuidString: s)
        case (.uuid, .blob(let d)) where d.count == 16:
            let b = Array(d)
            return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
        default: return "unreadable \(value)"
        }
    }

    /// One value as text that says its Swift type: a Date to the millisecond (the precision
    /// Strata's text dates keep), an enum by its raw value.
    static func canonical(_ value: Any?) -> String {
        guard let value else { return "nil" }
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first else { return "nil" }
            return canonical(wrapped.value)
        }
        switch value {
        case let v as Int: return "Int(\(v))"
        case let v as Double: return "Double(\(v))"
        case let v as Bool: return "Bool(\(v))"
        case let v as String: return "String(\(v.debugDescription))"
        case let v as Data: return "Data(\(v.map { String(format: "%02x", $0) }.joined()))"
        case let v as Date: return "Date(\(Int64((v.timeIntervalSince1970 * 1000).rounded())) ms)"
        case let v as UUID: return "UUID(\(v.uuidString))"
        case let v as any RawRepresentable: return canonical(v.rawValue)
        default: return "\(type(of: value))(\(value))"
        }
    }
}
