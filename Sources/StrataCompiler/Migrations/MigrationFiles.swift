import Foundation
import Strata

/// The migration files of a schema: `<Name>.migrations/NNNN_snake_case_name.sql` beside
/// `<Name>.schema.yml`, numbered from 0001 without gaps.
///
/// The code generator and the build plugin embed what ``load(schemaPath:)`` returns; the CLI
/// writes the next file with ``nextFile(schemaPath:name:)``.
///
/// ```swift
/// let migrations = try MigrationFiles.load(schemaPath: "Sources/App/Shop.schema.yml")
/// // Sources/App/Shop.migrations/0001_initial.sql → Migration(version: 1, name: "initial", …)
/// ```
package enum MigrationFiles {
    /// The migrations folder of a schema file: `Shop.schema.yml` → `Shop.migrations`.
    package static func directory(forSchemaPath schemaPath: String) -> String {
        let url = URL(fileURLWithPath: schemaPath)
        var stem = url.lastPathComponent
        for suffix in [".schema.yml", ".schema.yaml", ".yml", ".yaml"] where stem.hasSuffix(suffix) {
            stem.removeLast(suffix.count)
            break
        }
        let folder = (schemaPath as NSString).deletingLastPathComponent
        return folder.isEmpty ? "\(stem).migrations" : (folder as NSString).appendingPathComponent("\(stem).migrations")
    }

    /// The migrations of the schema at `schemaPath`, in version order; empty when its folder
    /// does not exist. Throws ``DiagnosticsError`` for a badly named file, a duplicate version,
    /// or a gap.
    package static func load(schemaPath: String) throws -> [Migration] {
        try load(directory: directory(forSchemaPath: schemaPath))
    }

    /// The `.sql` file paths of a migrations folder, sorted by name.
    package static func filePaths(directory: String) throws -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasSuffix(".sql") }
            .sorted()
            .map { (directory as NSString).appendingPathComponent($0) }
    }

    /// The migrations in `directory`.
    package static func load(directory: String) throws -> [Migration] {
        var diagnostics: [Diagnostic] = []
        var migrations: [(Migration, String)] = []
        for path in try filePaths(directory: directory) {
            let location = SourceLocation(file: path, line: 1, column: 1)
            let fileName = (path as NSString).lastPathComponent
            guard let (version, name) = parse(fileName: fileName) else {
                diagnostics.append(
                    Diagnostic(
                        at: location, "migration file name '\(fileName)' is not NNNN_snake_case_name.sql",
                        hint: "rename it like 0001_initial.sql"))
                continue
            }
            let sql: String
            do {
                sql = try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                diagnostics.append(Diagnostic(at: location, "cannot read migration file: \(error.localizedDescription)"))
                continue
            }
            migrations.append((Migration(version: version, name: name, sql: sql), path))
        }
        migrations.sort { ($0.0.version, $0.1) < ($1.0.version, $1.1) }
        var expected = 1
        for (offset, (migration, path)) in migrations.enumerated() {
            let location = SourceLocation(file: path, line: 1, column: 1)
            if offset > 0, migrations[offset - 1].0.version == migration.version {
                diagnostics.append(
                    Diagnostic(
                        at: location, "two migration files have version \(migration.version)",
                        hint: "renumber \((migrations[offset - 1].1 as NSString).lastPathComponent) or this file"))
                continue
            }
            if migration.version != expected {
                diagnostics.append(
                    Diagnostic(
                        at: location, "migration \(migration.fileName) should be version \(expected): migrations are numbered from 0001 without gaps",
                        hint: "rename it to \(Migration(version: expected, name: migration.name, sql: "").fileName)"))
            }
            expected = migration.version + 1
        }
        if !diagnostics.isEmpty { throw DiagnosticsError(diagnostics) }
        return migrations.map(\.0)
    }

    /// `0012_add_phone.sql` → `(12, "add_phone")`; nil when the name does not follow the pattern.
    package static func parse(fileName: String) -> (version: Int, name: String)? {
        guard fileName.hasSuffix(".sql") else { return nil }
        let stem = fileName.dropLast(4)
        guard let underscore = stem.firstIndex(of: "_") else { return nil }
        let digits = stem[..<underscore]
        let name = String(stem[stem.index(after: underscore)...])
        guard digits.count >= 4, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let version = Int(digits), version > 0,
            !name.isEmpty, name == snakeCase(name)
        else { return nil }
        return (version, name)
    }

    /// `AddPhone`, `add phone`, `add-phone` → `add_phone`.
    package static func snakeCase(_ text: String) -> String {
        var result = ""
        var previous: Character?
        for character in text {
            if character.isLetter || character.isNumber, character.isASCII {
                if character.isUppercase, let previous, previous.isLowercase || previous.isNumber {
                    result += "_"
                }
                result += character.lowercased()
            } else if !result.isEmpty && !result.hasSuffix("_") {
                result += "_"
            }
            previous = character
        }
        while result.hasSuffix("_") { result.removeLast() }
        return result
    }

    /// `0002_add_phone`.
    package static func fileStem(version: Int, name: String) -> String {
        String(Migration(version: version, name: name, sql: "").fileName.dropLast(4))
    }

    /// The path and version of the next migration file for `name` (snake-cased).
    package static func nextFile(schemaPath: String, name: String) throws -> (path: String, version: Int, name: String) {
        let version = (try load(schemaPath: schemaPath).last?.version ?? 0) + 1
        let snake = snakeCase(name)
        let fileName = Migration(version: version, name: snake, sql: "").fileName
        return ((directory(forSchemaPath: schemaPath) as NSString).appendingPathComponent(fileName), version, snake)
    }
}
