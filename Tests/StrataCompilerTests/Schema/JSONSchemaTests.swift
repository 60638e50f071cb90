import Foundation
import Testing
@testable import StrataCompiler

/// `schemas/strata.schema.json`, the JSON Schema editors read through the YAML language server:
/// it lists exactly the keys the loader accepts, and a real validator (Python's `jsonschema`)
/// accepts every valid schema file of the repository and rejects the structurally broken ones.
@Suite struct JSONSchemaTests {
    static let schemaURL = ExternalTool.repositoryRoot.appendingPathComponent("schemas/strata.schema.json")

    static func loadSchema() throws -> [String: Any] {
        let data = try Data(contentsOf: schemaURL)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    // MARK: - The same keys as the loader

    @Test func listsExactlyTheKeysTheLoaderAccepts() throws {
        let root = try Self.loadSchema()
        var found: [String: [String]] = [:]
        JSONSchemaWalker(root: root).collectClosedMappings(root, path: "", into: &found)
        let paths = Set(found.keys).union(SchemaKeys.accepted.keys).sorted()
        for path in paths {
            let inJSON = Set(found[path] ?? [])
            let inLoader = Set(SchemaKeys.accepted[path] ?? [])
            #expect(inJSON == inLoader, """
                keys at '\(path)' differ: only in strata.schema.json: \(inJSON.subtracting(inLoader).sorted()), \
                only accepted by the loader: \(inLoader.subtracting(inJSON).sorted()); update schemas/strata.schema.json \
                (and SchemaKeys.accepted for a new mapping)
                """)
        }
    }

    /// A key list the decoder checks but `SchemaKeys.accepted` does not name would escape the
    /// comparison above: count the decoder's `allowed:` lists.
    @Test func everyKeyListOfTheDecoderIsInSchemaKeys() throws {
        let directory = ExternalTool.repositoryRoot.appendingPathComponent("Sources/StrataCompiler")
        let enumerator = try #require(FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil))
        var lists = Set<String>()
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            let source = try String(contentsOf: url, encoding: .utf8)
            var rest = Substring(source)
            while let range = rest.range(of: "allowed: ") {
                rest = rest[range.upperBound...]
                let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" }
                if name.hasPrefix("Self.") || name.hasPrefix("SchemaDecoder.") || name.hasPrefix("SchemaKeys.") {
                    lists.insert(String(name))
                }
            }
        }
        #expect(lists.count == SchemaKeys.accepted.count,
                "the decoder checks keys against \(lists.sorted()); SchemaKeys.accepted has \(SchemaKeys.accepted.count) lists")
    }

    @Test func listsTheLoadersVocabularies() throws {
        let root = try Self.loadSchema()
        let walker = JSONSchemaWalker(root: root)
        for (key, values) in SchemaKeys.acceptedValues {
            let inJSON = walker.enumValues(ofProperty: key, in: root)
            let expected = key == "type" ? Set(values.flatMap { [$0, $0 + "?"] }) : Set(values)
            #expect(expected.isSubset(of: inJSON), "'\(key)' lists \(inJSON.sorted()), the loader accepts \(expected.sorted())")
            if key != "primaryKey" {
                #expect(inJSON.isSubset(of: expected), "'\(key)' lists values the loader rejects: \(inJSON.subtracting(expected).sorted())")
            }
        }
    }

    @Test func everyKeyHasADescription() throws {
        let root = try Self.loadSchema()
        var missing: [String] = []
        JSONSchemaWalker(root: root).checkDescriptions(root, path: "", missing: &missing)
        #expect(missing.isEmpty, "keys without a description (hover text in editors): \(missing)")
        #expect(root["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
    }

    @Test func theReadmeShowsTheEditorLine() throws {
        let readme = try String(contentsOf: ExternalTool.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("# yaml-language-server: $schema="))
        #expect(readme.contains("strata.schema.json"))
    }

    // MARK: - A real validator

    /// How the JSON Schema treats each broken fixture. Every fixture must be listed, so a new one
    /// is classified on purpose.
    enum Expectation {
        /// Not readable YAML for the loader (syntax, encoding, tabs, duplicate keys, aliases):
        /// never reaches the validator, the YAML language server reports it itself.
        case notYAML
        /// Structurally broken: the JSON Schema rejects it.
        case rejected
        /// Well-formed but semantically wrong (a rule across keys, tables or SQL): the JSON
        /// Schema accepts it, the loader reports it.
        case accepted
    }

    static let brokenFixtures: [String: Expectation] = [
        // Not YAML for the loader.
        "alias-bomb": .notYAML, "duplicate-key": .notYAML, "duplicate-table-and-query": .notYAML, "invalid-utf8": .notYAML,
        "multiple-documents": .notYAML, "tabs": .notYAML, "unknown-alias": .notYAML, "yaml-syntax-error": .notYAML,
        // Structure: unknown keys, wrong kinds, values outside a vocabulary or a pattern.
        "columns-not-a-mapping": .rejected, "default-null": .rejected, "empty-file": .rejected,
        "enum-duplicate-value": .rejected, "enum-without-values": .rejected, "foreign-key-bad-format": .rejected,
        "invalid-column-name": .rejected, "invalid-database-name": .rejected, "invalid-record-name": .rejected,
        "json-without-swift-type": .rejected, "limit-parameter-and-params": .rejected, "many-problems": .rejected,
        "no-tables": .rejected, "on-delete-without-references": .rejected, "options-not-bool": .rejected,
        "primary-key-bad-value": .rejected, "query-bad-returns-and-limit": .rejected, "unknown-column-key": .rejected,
        "unknown-foreign-key-action": .rejected, "unknown-table-key": .rejected, "unknown-top-level-key": .rejected,
        "unknown-type-long-form": .rejected, "unknown-type": .rejected,
        // Semantics: names that clash, references to resolve, types to compare, SQL to prepare.
        "autoincrement-on-text": .accepted, "bad-check-expression": .accepted, "bad-index-where": .accepted,
        "dao-name-collision": .accepted, "database-name-hides-type": .accepted, "database-name-is-a-dao": .accepted,
        "default-bad-date": .accepted, "default-wrong-type": .accepted, "duplicate-index-name": .accepted,
        "duplicate-sql-column-name": .accepted, "duplicate-sql-table-name": .accepted,
        "enum-default-not-a-value": .accepted,
        "enum-swift-type-hides-type": .accepted, "enum-type-collision": .accepted, "foreign-key-not-unique": .accepted,
        "foreign-key-type-mismatch": .accepted, "foreign-key-unknown-column": .accepted,
        "foreign-key-unknown-table": .accepted, "index-name-collides-with-table": .accepted,
        "index-unknown-column": .accepted, "missing-primary-key": .accepted, "optional-contradiction": .accepted,
        "primary-key-on-two-columns": .accepted, "primary-key-optional": .accepted, "primary-key-twice": .accepted,
        "primary-key-unknown-column": .accepted, "query-bad-order-by": .accepted,
        "query-conflicting-parameter-types": .accepted, "query-named-like-dao-method": .accepted,
        "query-parameter-not-inferred": .accepted, "query-positional-parameter": .accepted,
        "query-syntax-error": .accepted, "query-two-statements": .accepted, "query-unknown-column": .accepted,
        "query-unterminated-comment": .accepted, "query-unused-param": .accepted, "query-uses-swift-name": .accepted,
        "record-hides-strata-type": .accepted, "record-hides-used-type": .accepted,
        "reserved-sql-table-name": .accepted, "set-null-on-required-column": .accepted,
        "swift-type-on-text": .accepted,
    ]

    /// Every `*.schema.yml` / `*.schema.yaml` of the repository outside build directories and
    /// the clones `Benchmarks/run.sh` leaves under `Benchmarks/results` (copies of the tree).
    static func schemaFiles() -> [URL] {
        let root = ExternalTool.repositoryRoot
        guard let enumerator = FileManager.default.enumerator(
            at: root, includingPropertiesForKeys: [.isDirectoryKey], options: [.skipsHiddenFiles]) else { return [] }
        var files: [URL] = []
        for case let url as URL in enumerator {
            if url.lastPathComponent.hasPrefix(".build") || url.lastPathComponent == "node_modules"
                || url.path.hasSuffix("/Benchmarks/results")
            {
                enumerator.skipDescendants()
                continue
            }
            let name = url.lastPathComponent
            if name.hasSuffix(".schema.yml") || name.hasSuffix(".schema.yaml") { files.append(url) }
        }
        return files.sorted { $0.path < $1.path }
    }

    static var validatorAvailable: Bool {
        guard ExternalTool.find("python3") != nil else { return false }
        return (try? ExternalTool.run("python3", ["-c", "import jsonschema"]).status) == 0
    }

    /// Runs `jsonschema`'s Draft 2020-12 validator over JSON documents; returns the errors by name.
    static func validate(_ documents: [String: String]) throws -> [String: [String]] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-jsonschema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, json) in documents {
            try json.write(to: directory.appendingPathComponent(name + ".json"), atomically: true, encoding: .utf8)
        }
        let script = """
            import json, os, sys
            from jsonschema import Draft202012Validator
            schema = json.load(open(sys.argv[1], encoding="utf-8"))
            Draft202012Validator.check_schema(schema)
            validator = Draft202012Validator(schema)
            result = {}
            for name in sorted(os.listdir(sys.argv[2])):
                document = json.load(open(os.path.join(sys.argv[2], name), encoding="utf-8"))
                result[name[:-5]] = ["/".join(map(str, e.absolute_path)) + ": " + e.message for e in validator.iter_errors(document)]
            print(json.dumps(result))
            """
        let run = try ExternalTool.run("python3", ["-c", script, schemaURL.path, directory.path])
        guard run.status == 0, let data = run.stdout.data(using: .utf8),
              let result = try JSONSerialization.jsonObject(with: data) as? [String: [String]] else {
            Issue.record("the validator failed (exit \(run.status)): \(run.stderr)")
            return [:]
        }
        return result
    }

    /// The document as the loader reads it (YAML 1.2 core scalars, merge keys applied), as JSON;
    /// nil when it is not YAML the loader can read.
    static func json(of url: URL) throws -> String? {
        let bytes = try [UInt8](Data(contentsOf: url))
        let yaml = YAMLLoader.load(bytes: bytes, file: url.lastPathComponent)
        if yaml.diagnostics.contains(where: { $0.severity == .error }) { return nil }
        return yaml.root.map(JSONText.render) ?? "null"
    }

    @Test(.enabled(if: validatorAvailable || ExternalTool.isCI,
                   "python3 with jsonschema is not installed (pip install jsonschema, or apt-get install python3-jsonschema)"))
    func validatesEverySchemaFileOfTheRepository() throws {
        #expect(Self.validatorAvailable, "CI=true: python3 with jsonschema must be installed (.ci/run installs it)")
        let files = Self.schemaFiles()
        let brokenDirectory = BrokenFixtures.directory.standardizedFileURL.path
        var documents: [String: String] = [:]
        var valid: [String] = []
        var broken: [String: Expectation] = [:]
        for (index, url) in files.enumerated() {
            let isBroken = url.deletingLastPathComponent().standardizedFileURL.path == brokenDirectory
            let name = isBroken ? String(url.lastPathComponent.dropLast(".schema.yml".count)) : "valid-\(index)"
            if isBroken {
                let expectation = try #require(Self.brokenFixtures[name],
                                               "classify the broken fixture '\(name)' in JSONSchemaTests.brokenFixtures")
                broken[name] = expectation
                let json = try Self.json(of: url)
                #expect((json == nil) == (expectation == .notYAML), "\(name): the loader \(json == nil ? "cannot" : "can") read it as YAML")
                if let json { documents[name] = json }
            } else {
                let (_, diagnostics) = SchemaLoader.check(path: url.path)
                #expect(diagnostics.isEmpty, "\(url.path) should be a valid schema: \(diagnostics)")
                guard let json = try Self.json(of: url) else {
                    Issue.record("the loader cannot read \(url.path) as YAML")
                    continue
                }
                documents[name] = json
                valid.append(name)
            }
        }
        #expect(valid.count >= 6, "found only \(valid.count) valid schema files")
        #expect(Set(broken.keys) == Set(Self.brokenFixtures.keys), "classified fixtures that no longer exist")

        let results = try Self.validate(documents)
        for (index, url) in files.enumerated() where valid.contains("valid-\(index)") {
            let errors = results["valid-\(index)"]
            #expect(errors == [], "strata.schema.json rejects the valid \(url.path): \(errors ?? ["not validated"])")
        }
        for (name, expectation) in broken.sorted(by: { $0.key < $1.key }) where expectation != .notYAML {
            let errors = results[name] ?? ["not validated"]
            if expectation == .rejected {
                #expect(!errors.isEmpty, "strata.schema.json accepts the structurally broken fixture '\(name)'")
            } else {
                #expect(errors.isEmpty, "'\(name)' is classified as semantic, yet strata.schema.json rejects it: \(errors)")
            }
        }
    }
}

/// Reads the parts of a JSON Schema these tests compare: resolves local `$ref`s and walks
/// `properties`, `additionalProperties`, `items` and the `oneOf`/`anyOf`/`allOf` alternatives.
struct JSONSchemaWalker {
    var root: [String: Any]

    func resolve(_ node: [String: Any]) -> [String: Any] {
        guard let ref = node["$ref"] as? String, ref.hasPrefix("#/") else { return node }
        var current: Any = root
        for part in ref.dropFirst(2).split(separator: "/") {
            guard let object = current as? [String: Any], let next = object[String(part)] else { return node }
            current = next
        }
        guard let target = current as? [String: Any] else { return node }
        return resolve(target).merging(node.filter { $0.key != "$ref" }) { _, local in local }
    }

    func alternatives(_ node: [String: Any]) -> [[String: Any]] {
        ["oneOf", "anyOf", "allOf"].flatMap { (node[$0] as? [[String: Any]]) ?? [] }
    }

    /// Every mapping closed with `additionalProperties: false`, by path (`tables.*.columns.*`).
    func collectClosedMappings(_ raw: [String: Any], path: String, into found: inout [String: [String]]) {
        let node = resolve(raw)
        if let properties = node["properties"] as? [String: Any], node["additionalProperties"] as? Bool == false {
            found[path, default: []] += properties.keys
            for (key, value) in properties {
                if let value = value as? [String: Any] {
                    collectClosedMappings(value, path: path.isEmpty ? key : "\(path).\(key)", into: &found)
                }
            }
        }
        if let additional = node["additionalProperties"] as? [String: Any] {
            collectClosedMappings(additional, path: "\(path).*", into: &found)
        }
        if let items = node["items"] as? [String: Any] {
            collectClosedMappings(items, path: "\(path)[]", into: &found)
        }
        for alternative in alternatives(node) {
            collectClosedMappings(alternative, path: path, into: &found)
        }
    }

    /// The string `enum` values of every property named `name`, anywhere in the schema.
    func enumValues(ofProperty name: String, in raw: [String: Any]) -> Set<String> {
        var values = Set<String>()
        func visit(_ raw: [String: Any], key: String?) {
            let node = resolve(raw)
            if key == name {
                collectEnum(node, into: &values)
            }
            let properties = (node["properties"] as? [String: Any]) ?? [:]
            for (childKey, value) in properties {
                if let value = value as? [String: Any] { visit(value, key: childKey) }
            }
            for child in [node["additionalProperties"], node["items"]].compactMap({ $0 as? [String: Any] }) {
                visit(child, key: nil)
            }
            for alternative in alternatives(node) { visit(alternative, key: key) }
        }
        visit(raw, key: nil)
        return values
    }

    func collectEnum(_ raw: [String: Any], into values: inout Set<String>) {
        let node = resolve(raw)
        for value in (node["enum"] as? [Any]) ?? [] {
            if let text = value as? String { values.insert(text) }
        }
        // A list of words (`dialects: [sqlite, postgres]`) lists its vocabulary on its items.
        if let items = node["items"] as? [String: Any] { collectEnum(items, into: &values) }
        for alternative in alternatives(node) { collectEnum(alternative, into: &values) }
    }

    /// Properties (at any depth) whose schema has no `description`.
    func checkDescriptions(_ raw: [String: Any], path: String, missing: inout [String]) {
        let node = resolve(raw)
        for (key, value) in (node["properties"] as? [String: Any]) ?? [:] {
            guard let value = value as? [String: Any] else { continue }
            let childPath = path.isEmpty ? key : "\(path).\(key)"
            if ((resolve(value)["description"] as? String) ?? "").isEmpty { missing.append(childPath) }
            checkDescriptions(value, path: childPath, missing: &missing)
        }
        for child in [node["additionalProperties"], node["items"]].compactMap({ $0 as? [String: Any] }) {
            checkDescriptions(child, path: "\(path).*", missing: &missing)
        }
        for alternative in alternatives(node) { checkDescriptions(alternative, path: path, missing: &missing) }
    }
}
