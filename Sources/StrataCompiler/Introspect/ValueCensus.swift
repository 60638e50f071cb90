import Foundation
import Strata

/// What one column of a live table holds: how many values of each storage class (`typeof()`),
/// and the values its declared type's Swift type could not read.
struct ColumnCensus: Hashable, Sendable {
    var integers = 0
    var reals = 0
    var texts = 0
    var blobs = 0
    /// Reals with a fraction (an `int` column cannot read them).
    var fractionalReals = 0
    /// Up to five values (as SQL literals) the tentative type cannot read.
    var unreadable: [String] = []
    /// How many values the tentative type cannot read.
    var unreadableCount = 0
    /// The smallest and largest number of a date column, or of a column named like a date
    /// (nil when it holds none).
    var numberRange: ClosedRange<Double>?
    /// Up to five of those numbers (as SQL literals), when they are too small for the census to
    /// settle what they count (``TypeChoice/unsettledDateWarning(column:declared:choice:census:)``).
    var smallNumbers: [String] = []
}

/// Takes the census of a table: one scan for the storage classes of all its columns, then one
/// query per column whose tentative type needs a format check (bool, date, uuid).
enum ValueCensus {
    static let exampleCount = 5

    static func take(_ conn: Connection, table: DatabaseTable) throws -> [String: ColumnCensus] {
        let columns = table.columns.filter { $0.hidden == 0 }
        guard !columns.isEmpty else { return [:] }
        let from = " FROM \(SQLRenderer.quoteIdentifier(table.name))"
        var result: [String: ColumnCensus] = [:]
        // Five sums per column, in chunks that stay under SQLite's 2,000 result columns.
        for start in stride(from: 0, to: columns.count, by: 300) {
            let chunk = Array(columns[start..<min(start + 300, columns.count)])
            var parts: [String] = []
            for column in chunk {
                let name = SQLRenderer.quoteIdentifier(column.name)
                parts += ["integer", "real", "text", "blob"].map { "coalesce(sum(typeof(\(name)) = '\($0)'), 0)" }
                parts.append("coalesce(sum(typeof(\(name)) = 'real' AND \(name) <> CAST(\(name) AS INTEGER)), 0)")
            }
            guard let row = try conn.fetchOne(sql: "SELECT " + parts.joined(separator: ", ") + from) else { continue }
            for (offset, column) in chunk.enumerated() {
                let base = offset * 5
                var census = ColumnCensus(
                    integers: try row.get(base), reals: try row.get(base + 1), texts: try row.get(base + 2), blobs: try row.get(base + 3),
                    fractionalReals: try row.get(base + 4))
                try checkFormat(&census, conn: conn, column: column, from: from)
                result[SQLName.fold(column.name)] = census
            }
        }
        return result
    }

    /// Fills `unreadable` for bool, date and uuid columns.
    static func checkFormat(_ census: inout ColumnCensus, conn: Connection, column: DatabaseColumn, from: String) throws {
        let name = SQLRenderer.quoteIdentifier(column.name)
        switch TypeChoice.tentative(declared: column.type) {
        case "bool":
            let condition = " WHERE \(name) IS NOT NULL AND NOT (typeof(\(name)) IN ('integer', 'real') AND \(name) IN (0, 1))"
            census.unreadableCount = try conn.fetchValue(Int.self, sql: "SELECT count(*)" + from + condition) ?? 0
            if census.unreadableCount > 0 {
                census.unreadable = try examples(conn, sql: "SELECT DISTINCT quote(\(name))" + from + condition)
            }
        case "date", "uuid":
            let isDate = TypeChoice.tentative(declared: column.type) == "date"
            var bad: [String] = []
            var count = 0
            if census.texts > 0 {
                for row in try conn.fetch(sql: "SELECT \(name), count(*)" + from + " WHERE typeof(\(name)) = 'text' GROUP BY 1") {
                    let text: String = try row.get(0)
                    let readable = isDate ? DateFormat.date(from: text) != nil : UUID(uuidString: text) != nil && text.utf8.count == 36
                    if !readable {
                        count += try row.get(1, as: Int.self)
                        if bad.count < exampleCount { bad.append(SQLRenderer.quoteLiteral(text)) }
                    }
                }
            }
            // Numbers are epoch seconds for a date; a UUID reads 16-byte blobs.
            let others =
                isDate
                ? " WHERE typeof(\(name)) = 'blob'"
                : " WHERE typeof(\(name)) IN ('integer', 'real') OR (typeof(\(name)) = 'blob' AND length(\(name)) <> 16)"
            let otherCount = try conn.fetchValue(Int.self, sql: "SELECT count(*)" + from + others) ?? 0
            if otherCount > 0 {
                count += otherCount
                bad += try examples(conn, sql: "SELECT DISTINCT quote(\(name))" + from + others).prefix(exampleCount - min(bad.count, exampleCount))
            }
            census.unreadableCount = count
            census.unreadable = bad
            if isDate { try takeNumbers(&census, conn: conn, name: name, from: from) }
        default:
            if TypeChoice.isDateNamed(column.name) { try takeNumbers(&census, conn: conn, name: name, from: from) }
        }
    }

    /// Fills `numberRange` (and `smallNumbers`, when the numbers are small) of a date column.
    static func takeNumbers(_ census: inout ColumnCensus, conn: Connection, name: String, from: String) throws {
        guard census.integers + census.reals > 0 else { return }
        let numbers = " WHERE typeof(\(name)) IN ('integer', 'real')"
        guard let row = try conn.fetchOne(sql: "SELECT min(\(name)), max(\(name))" + from + numbers),
            let low = try row.get(0, as: Double?.self), let high = try row.get(1, as: Double?.self), low <= high
        else { return }
        census.numberRange = low...high
        if TypeChoice.isSmallDateNumber(low...high) {
            census.smallNumbers = try examples(conn, sql: "SELECT DISTINCT quote(\(name))" + from + numbers)
        }
    }

    static func examples(_ conn: Connection, sql: String) throws -> [String] {
        try conn.fetch(sql: sql + " LIMIT \(exampleCount)").map { try $0.get(0, as: String.self) }
    }
}

/// The schema type of a live column: from its declared type, by SQLite's affinity rules plus
/// names, then checked against the census of its values.
struct TypeChoice: Hashable, Sendable {
    var keyword: String
    var warning: String?
    /// For a `date`: the `dateFormat:` its values are stored in, when not Strata's text.
    var dateFormat: DateStorage? = nil

    /// The type the declared type alone suggests (`declared` is upper-cased).
    static func tentative(declared: String) -> String {
        let type = declared.uppercased()
        if type.hasPrefix("BOOL") { return "bool" }
        if type.hasPrefix("DATE") || type.hasPrefix("TIMESTAMP") { return "date" }
        if type.hasPrefix("UUID") || type.hasPrefix("GUID") || type.hasPrefix("UNIQUEIDENTIFIER") { return "uuid" }
        // SQLite's affinity rules, in their order (sqlite.org/datatype3.html#determination_of_column_affinity).
        if type.contains("INT") { return "int" }
        if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") { return "text" }
        if type.isEmpty || type.contains("BLOB") || type == "ANY" { return "any" }
        if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") { return "double" }
        return "double"  // NUMERIC, DECIMAL(10, 2) …
    }

    /// What the numbers of a date column count, when it is not seconds since 1970: Julian day
    /// numbers (2,400,000 … 2,600,000: years 1858–2406; as Unix seconds, late January 1970) or
    /// milliseconds since 1970 (more than 10^11: as seconds, after the year 5138). nil when they
    /// read as Unix seconds.
    static func numericDateGuess(_ range: ClosedRange<Double>) -> DateStorage? {
        if range.lowerBound >= 2_400_000 && range.upperBound <= 2_600_000 { return .julianDay }
        if range.lowerBound > 100_000_000_000 { return .unixMilliseconds }
        return nil
    }

    /// Whether a column's name says it holds dates (`created_at`, `updatedAt`, `ZCREATIONDATE`,
    /// `birth_date`, `timestamp`): its numbers may be dates whatever its declared type.
    static func isDateNamed(_ name: String) -> Bool {
        let folded = name.lowercased()
        if ["date", "datetime", "timestamp"].contains(where: { folded.hasSuffix($0) }) || folded.hasPrefix("date") { return true }
        if folded.hasSuffix("_at") { return true }
        // camelCase `…At`: a lower-case letter before it.
        let scalars = Array(name.unicodeScalars)
        return scalars.count > 2 && name.hasSuffix("At") && CharacterSet.lowercaseLetters.contains(scalars[scalars.count - 3])
    }

    /// Numbers that read as seconds since 1970 would be dates before September 2001, and as
    /// seconds since 2001 (Core Data's reference date) dates before 2033: both readings are
    /// plausible, so the census cannot settle which format a column of them is in.
    static func isSmallDateNumber(_ range: ClosedRange<Double>) -> Bool {
        range.upperBound < 1_000_000_000 && range.lowerBound > -1_000_000_000 && !(range.lowerBound >= 2_400_000 && range.upperBound <= 2_600_000)
    }

    /// The warning for a column declared DATE/TIMESTAMP, or named like a date, whose numbers are
    /// too small to say what they count (outside a Core Data store, whose tables say it): it
    /// shows examples, what the largest reads as in each format, and which `dateFormat:` to write.
    /// Nil when the numbers settle the format or the column holds none.
    static func unsettledDateWarning(column: String, declared: String, choice: TypeChoice, census: ColumnCensus?) -> String? {
        guard let census, !census.smallNumbers.isEmpty, let range = census.numberRange, choice.warning == nil else { return nil }
        let isDateTyped = choice.keyword == "date" && choice.dateFormat == nil
        guard isDateTyped || (["int", "double"].contains(choice.keyword) && isDateNamed(column)) else { return nil }
        func day(_ date: Date) -> String { String(DateFormat.string(from: date).prefix(19)) }
        let largest = range.upperBound
        let number = largest == largest.rounded() ? String(Int64(largest)) : "\(largest)"
        let shown = declared.isEmpty ? "no type" : declared
        let readings =
            "as seconds since 1970 (`dateFormat: unixSeconds`) the largest, \(number), is \(day(Date(timeIntervalSince1970: largest))); as seconds since 2001-01-01 (`dateFormat: referenceDate`, Core Data's) it is \(day(Date(timeIntervalSinceReferenceDate: largest)))"
        let examples = census.smallNumbers.joined(separator: ", ")
        if isDateTyped {
            return "declared \(shown) and holds numbers the census cannot settle (\(examples)): \(readings); typed date and read as seconds since 1970: write `dateFormat: referenceDate` if they count from 2001, `dateFormat: unixSeconds` if from 1970"
        }
        return "named like a date and holds numbers the census cannot settle (\(examples)): \(readings); typed \(choice.keyword): if they are dates, declare it `{ type: date, dateFormat: unixSeconds }` or `{ type: date, dateFormat: referenceDate }`, as they count"
    }

    /// The type for a column declared `declared` whose values are `census`.
    static func choose(declared: String, census: ColumnCensus?) -> TypeChoice {
        let census = census ?? ColumnCensus()
        let tentative = tentative(declared: declared)
        let shown = declared.isEmpty ? "no type" : declared
        func fallback(_ problem: String) -> TypeChoice {
            let keyword = census.blobs > 0 ? "blob" : (census.texts > 0 || census.reals + census.integers == 0 ? "text" : (census.reals > 0 ? "double" : "int"))
            return TypeChoice(keyword: keyword, warning: "declared \(shown) but \(problem); typed \(keyword) so every row reads")
        }
        let examples = census.unreadable.joined(separator: ", ")
        switch tentative {
        case "bool":
            if census.unreadableCount == 0 { return TypeChoice(keyword: "bool") }
            return fallback("holds \(census.unreadableCount) value(s) that are not 0 or 1 (\(examples))")
        case "date", "uuid":
            if tentative == "date", census.unreadableCount == 0, let range = census.numberRange, let format = numericDateGuess(range) {
                // Every number is in the format's range (Julian days, Unix milliseconds): the
                // census settles the format, read as Unix seconds they would read wrong.
                if census.texts == 0 { return TypeChoice(keyword: "date", dateFormat: format) }
                // Numbers of one format beside text dates: a column's dates have one format.
                let shownRange = range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound) … \(range.upperBound)"
                return TypeChoice(
                    keyword: "double",
                    warning:
                        "declared \(shown) and holds numbers (\(shownRange)) that look like \(format == .julianDay ? "Julian day numbers" : "milliseconds since 1970") beside \(census.texts) text value(s); typed double (the values as stored) so that no date reads wrong: convert the column to one format, then declare it 'type: date' with its 'dateFormat:'")
            }
            if census.unreadableCount == 0 { return TypeChoice(keyword: tentative) }
            return fallback("holds \(census.unreadableCount) value(s) Strata cannot read as \(tentative == "date" ? "dates" : "UUIDs") (\(examples))")
        case "int":
            if census.texts + census.blobs + census.fractionalReals == 0 { return TypeChoice(keyword: "int") }
            return fallback("holds \(census.texts) text, \(census.blobs) blob and \(census.fractionalReals) fractional value(s)")
        case "double":
            if census.texts + census.blobs == 0 { return TypeChoice(keyword: "double") }
            return fallback("holds \(census.texts) text and \(census.blobs) blob value(s)")
        case "text":
            if census.blobs == 0 { return TypeChoice(keyword: "text") }
            return TypeChoice(keyword: "blob", warning: "declared \(shown) but holds \(census.blobs) blob value(s); typed blob so every row reads")
        default:
            // No type, BLOB or ANY: whatever the values are.
            let classes = [census.integers, census.reals, census.texts, census.blobs].filter { $0 > 0 }.count
            if classes == 0 || census.blobs > 0 {
                if census.blobs > 0 && census.integers + census.reals > 0 {
                    return TypeChoice(keyword: "blob", warning: "declared \(shown) and holds blobs and numbers together; numbers read as their text's bytes")
                }
                return TypeChoice(keyword: "blob")
            }
            if census.texts > 0 { return TypeChoice(keyword: "text") }
            return TypeChoice(keyword: census.reals > 0 ? "double" : "int")
        }
    }
}
