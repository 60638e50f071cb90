import Foundation

/// The name of the Swift file the plugin generates for a schema. All outputs of a target go
/// into one work directory and Swift needs distinct file names in a module, so the name keeps
/// the schema's whole path inside the target, made flat in a way that cannot collide: `_`
/// becomes `__` and `/` becomes `_-` (no other pair starts with `_`), and the file's own name
/// is kept whole, `.yml` or `.yaml` included.
///
/// | schema (in the target) | output |
/// | --- | --- |
/// | `Library.schema.yml` | `Library.schema.yml.swift` |
/// | `Library.schema.yaml` | `Library.schema.yaml.swift` |
/// | `Models/Library.schema.yml` | `Models_-Library.schema.yml.swift` |
/// | `a_b/X.schema.yml` | `a__b_-X.schema.yml.swift` |
/// | `a/b/X.schema.yml` | `a_-b_-X.schema.yml.swift` |
///
/// (Shared with the compiler's tests through a symbolic link.)
enum StrataOutputFileName {
    /// The output file name for `schema`, a file inside `targetDirectory` (or anywhere: a
    /// schema outside the target is named by its absolute path, which starts with `_-`).
    static func fileName(schema: URL, targetDirectory: URL) -> String {
        let path = schema.standardizedFileURL.path
        let base = targetDirectory.standardizedFileURL.path
        let relative: String
        if base == "/" {
            relative = String(path.dropFirst())
        } else if path.hasPrefix(base + "/") {
            relative = String(path.dropFirst(base.count + 1))
        } else {
            relative = path
        }
        return flattened(relative) + ".swift"
    }

    /// `a_b/c` → `a__b_-c`: one file name for a relative path, injective.
    static func flattened(_ path: String) -> String {
        var result = ""
        for character in path {
            switch character {
            case "_": result += "__"
            case "/": result += "_-"
            default: result.append(character)
            }
        }
        return result
    }
}
