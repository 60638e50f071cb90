import Foundation
import Strata

/// Reads `<Name>.migrations/NNNN_name.sql` beside a schema file. (Temporary: replaced by the
/// migrations module's loader.)
enum MigrationDirectory {
    static func load(schemaPath: String) throws -> [Migration] {
        let schemaURL = URL(fileURLWithPath: schemaPath)
        let directory = schemaURL.deletingLastPathComponent().appendingPathComponent(Generator.schemaStem(of: schemaPath) + ".migrations")
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        var migrations: [Migration] = []
        for name in names.sorted() where name.hasSuffix(".sql") {
            let base = name.dropLast(4)
            guard let underscore = base.firstIndex(of: "_"), let version = Int(base[..<underscore]) else { continue }
            let sql = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            migrations.append(Migration(version: version, name: String(base[base.index(after: underscore)...]), sql: sql))
        }
        return migrations
    }
}
