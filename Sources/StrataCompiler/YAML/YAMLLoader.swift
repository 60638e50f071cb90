import CYAML

/// Reads one YAML document into ``YAMLNode``s over libyaml's event API, keeping the
/// line and column of every node.
///
/// Anchors and aliases are resolved (and `<<` merge keys applied) with a bound on how many
/// nodes aliases may expand to, so an "alias bomb" is an error rather than a hang; nesting
/// depth is bounded too. Tabs used for indentation, bytes that are not UTF-8, duplicate keys
/// and files with more than one document are reported with their position.
package enum YAMLLoader {
    /// The deepest nesting of mappings and sequences accepted.
    package static let maximumDepth = 128
    /// How many nodes aliases may expand to in one document.
    package static let maximumAliasExpansion = 100_000

    /// The outcome of loading: the root node (nil when the file is empty or unreadable) and
    /// the problems found. A non-empty `diagnostics` with a root means the problems were
    /// recoverable (duplicate keys: the first occurrence is kept).
    package struct Result: Sendable {
        /// The document's root node.
        package var root: YAMLNode?
        /// Problems found while reading.
        package var diagnostics: [Diagnostic]
    }

    /// Loads the single document of `bytes`, attributing positions to `file`.
    package static func load(bytes: [UInt8], file: String) -> Result {
        if let problem = encodingProblem(in: bytes, file: file) {
            return Result(root: nil, diagnostics: [problem])
        }
        let tabs = tabIndentation(in: bytes, file: file)
        if !tabs.isEmpty {
            return Result(root: nil, diagnostics: tabs)
        }
        if bytes.isEmpty {
            return Result(root: nil, diagnostics: [])
        }
        var builder = TreeBuilder(file: file)
        bytes.withUnsafeBufferPointer { buffer in
            builder.run(buffer, bytes: bytes)
        }
        return Result(root: builder.fatal == nil ? builder.root : nil, diagnostics: builder.diagnostics)
    }

    /// Loads the single document of `text`.
    package static func load(contents text: String, file: String) -> Result {
        load(bytes: Array(text.utf8), file: file)
    }

    // MARK: - Checks before parsing

    /// The first byte that does not belong to a well-formed UTF-8 sequence.
    static func encodingProblem(in bytes: [UInt8], file: String) -> Diagnostic? {
        var line = 1
        var column = 1
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let length: Int
            switch byte {
            case 0x00...0x7F: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: length = 0
            }
            var valid = length > 0 && index + length <= bytes.count
            if valid && length > 1 {
                for offset in 1..<length where bytes[index + offset] & 0xC0 != 0x80 { valid = false }
                if valid && length == 3 {
                    let second = bytes[index + 1]
                    if byte == 0xE0 && second < 0xA0 { valid = false }
                    if byte == 0xED && second > 0x9F { valid = false }
                }
                if valid && length == 4 {
                    let second = bytes[index + 1]
                    if byte == 0xF0 && second < 0x90 { valid = false }
                    if byte == 0xF4 && second > 0x8F { valid = false }
                }
            }
            if !valid {
                let hex = String(byte, radix: 16, uppercase: true)
                return Diagnostic(
                    at: SourceLocation(file: file, line: line, column: column),
                    "the file is not valid UTF-8 (byte 0x\(hex.count == 1 ? "0" + hex : hex))",
                    hint: "save the file as UTF-8")
            }
            if byte == 0x0A {
                line += 1
                column = 1
            } else {
                column += 1
            }
            index += length
        }
        return nil
    }

    /// Tabs in the indentation of a line that holds something: YAML forbids them.
    static func tabIndentation(in bytes: [UInt8], file: String) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var line = 1
        var atLineStart = true
        var column = 1
        var tabColumn: Int?
        for byte in bytes {
            if byte == 0x0A {
                line += 1
                column = 1
                atLineStart = true
                tabColumn = nil
                continue
            }
            if atLineStart {
                if byte == 0x09 {
                    if tabColumn == nil { tabColumn = column }
                } else if byte != 0x20 && byte != 0x0D {
                    atLineStart = false
                    if let tabColumn {
                        diagnostics.append(Diagnostic(
                            at: SourceLocation(file: file, line: line, column: tabColumn),
                            "tabs are not allowed in indentation", hint: "indent with spaces"))
                    }
                }
            }
            if byte & 0xC0 != 0x80 { column += 1 }
        }
        return diagnostics
    }
}

/// Builds the node tree from libyaml events with an explicit stack (no recursion).
private struct TreeBuilder {
    enum Frame {
        case mapping(start: SourceLocation, anchor: String?, pairs: [YAMLNode.Pair], pendingKey: YAMLNode?, size: Int)
        case sequence(start: SourceLocation, anchor: String?, items: [YAMLNode], size: Int)
    }

    let file: String
    var root: YAMLNode?
    var diagnostics: [Diagnostic] = []
    var fatal: Diagnostic?
    var stack: [Frame] = []
    var anchors: [String: (node: YAMLNode, size: Int)] = [:]
    var expanded = 0
    var documents = 0

    init(file: String) {
        self.file = file
    }

    func location(_ mark: yaml_mark_t) -> SourceLocation {
        SourceLocation(file: file, line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }

    mutating func fail(_ diagnostic: Diagnostic) {
        if fatal == nil {
            fatal = diagnostic
            diagnostics.append(diagnostic)
        }
    }

    mutating func run(_ buffer: UnsafeBufferPointer<UInt8>, bytes: [UInt8]) {
        guard let base = buffer.baseAddress else { return }
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) != 0 else {
            fail(Diagnostic(at: SourceLocation(file: file, line: 1, column: 1), "could not start the YAML parser"))
            return
        }
        defer { yaml_parser_delete(&parser) }
        yaml_parser_set_input_string(&parser, base, buffer.count)
        var event = yaml_event_t()
        while fatal == nil {
            guard yaml_parser_parse(&parser, &event) != 0 else {
                reportParserError(parser, bytes: bytes)
                return
            }
            let done = event.type == YAML_STREAM_END_EVENT
            handle(event)
            yaml_event_delete(&event)
            if done { return }
        }
    }

    mutating func reportParserError(_ parser: yaml_parser_t, bytes: [UInt8]) {
        let problem = parser.problem.map { String(cString: $0) } ?? "malformed YAML"
        var where_ = location(parser.problem_mark)
        if parser.error == YAML_READER_ERROR {
            where_ = Self.location(ofOffset: Int(parser.problem_offset), in: bytes, file: file)
        }
        var message = "invalid YAML: \(problem)"
        var hint: String?
        if let context = parser.context.map({ String(cString: $0) }) {
            message += " \(context)"
            let start = location(parser.context_mark)
            if start != where_ { hint = "it starts at line \(start.line), column \(start.column)" }
        }
        fail(Diagnostic(at: where_, message, hint: hint))
    }

    static func location(ofOffset offset: Int, in bytes: [UInt8], file: String) -> SourceLocation {
        var line = 1
        var column = 1
        for byte in bytes.prefix(offset) {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return SourceLocation(file: file, line: line, column: column)
    }

    static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        guard let pointer else { return nil }
        return String(cString: UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self))
    }

    mutating func handle(_ event: yaml_event_t) {
        let start = location(event.start_mark)
        switch event.type {
        case YAML_DOCUMENT_START_EVENT:
            documents += 1
            if documents > 1 {
                fail(Diagnostic(at: start, "a schema file holds exactly one YAML document",
                                hint: "remove the second document or its '---' separator"))
            }
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            var text = ""
            if let value = scalar.value {
                text = String(decoding: UnsafeBufferPointer(start: value, count: Int(scalar.length)), as: UTF8.self)
            }
            var style: YAMLNode.ScalarStyle = scalar.style == YAML_PLAIN_SCALAR_STYLE ? .plain : .quoted
            if let tag = Self.string(scalar.tag), tag == "tag:yaml.org,2002:str" { style = .quoted }
            complete(YAMLNode(.scalar(text, style), at: start), size: 1, anchor: Self.string(scalar.anchor))
        case YAML_ALIAS_EVENT:
            let name = Self.string(event.data.alias.anchor) ?? ""
            guard let target = anchors[name] else {
                fail(Diagnostic(at: start, "unknown alias '*\(name)'", hint: "define '&\(name)' before using it"))
                return
            }
            expanded += target.size
            if expanded > YAMLLoader.maximumAliasExpansion {
                fail(Diagnostic(at: start, "aliases expand to more than \(YAMLLoader.maximumAliasExpansion) nodes",
                                hint: "this looks like an alias bomb"))
                return
            }
            var node = target.node
            node.location = start
            complete(node, size: target.size, anchor: nil)
        case YAML_MAPPING_START_EVENT, YAML_SEQUENCE_START_EVENT:
            if stack.count >= YAMLLoader.maximumDepth {
                fail(Diagnostic(at: start, "nesting is deeper than \(YAMLLoader.maximumDepth) levels"))
                return
            }
            if event.type == YAML_MAPPING_START_EVENT {
                stack.append(.mapping(start: start, anchor: Self.string(event.data.mapping_start.anchor),
                                      pairs: [], pendingKey: nil, size: 1))
            } else {
                stack.append(.sequence(start: start, anchor: Self.string(event.data.sequence_start.anchor),
                                       items: [], size: 1))
            }
        case YAML_MAPPING_END_EVENT, YAML_SEQUENCE_END_EVENT:
            guard let frame = stack.popLast() else { return }
            switch frame {
            case .mapping(let start, let anchor, let pairs, _, let size):
                complete(YAMLNode(.mapping(finish(pairs)), at: start), size: size, anchor: anchor)
            case .sequence(let start, let anchor, let items, let size):
                complete(YAMLNode(.sequence(items), at: start), size: size, anchor: anchor)
            }
        default:
            break
        }
    }

    /// Drops duplicate keys (reporting them) and applies `<<` merge keys.
    mutating func finish(_ pairs: [YAMLNode.Pair]) -> [YAMLNode.Pair] {
        var seen: [String: SourceLocation] = [:]
        var explicit: [YAMLNode.Pair] = []
        for pair in pairs {
            let key = pair.key.scalarText ?? ""
            if key == "<<", case .scalar(_, .plain) = pair.key.kind {
                explicit.append(pair)
                continue
            }
            if let first = seen[key] {
                diagnostics.append(Diagnostic(at: pair.key.location, "duplicate key '\(key)'",
                                              hint: "first defined at line \(first.line)"))
                continue
            }
            seen[key] = pair.key.location
            explicit.append(pair)
        }
        var result: [YAMLNode.Pair] = []
        for pair in explicit {
            guard pair.key.scalarText == "<<", case .scalar(_, .plain) = pair.key.kind else {
                result.append(pair)
                continue
            }
            let sources: [YAMLNode]
            switch pair.value.kind {
            case .mapping: sources = [pair.value]
            case .sequence(let items): sources = items
            case .scalar:
                diagnostics.append(Diagnostic(at: pair.value.location, "a '<<' merge key needs a mapping or a list of mappings"))
                continue
            }
            for source in sources {
                guard let merged = source.pairs else {
                    diagnostics.append(Diagnostic(at: source.location, "a '<<' merge key needs a mapping or a list of mappings"))
                    continue
                }
                for candidate in merged {
                    let key = candidate.key.scalarText ?? ""
                    if seen[key] == nil {
                        seen[key] = candidate.key.location
                        result.append(candidate)
                    }
                }
            }
        }
        return result
    }

    mutating func complete(_ node: YAMLNode, size: Int, anchor: String?) {
        if let anchor { anchors[anchor] = (node, size) }
        guard var top = stack.popLast() else {
            if root == nil { root = node }
            return
        }
        // `top` is emptied before the append, so the array is not shared and grows in place
        // (appending to a copy held by `top` too copied it: quadratic in a mapping's size).
        let emptied = Frame.sequence(start: node.location, anchor: nil, items: [], size: 0)
        switch top {
        case .sequence(let start, let anchor, var items, let total):
            top = emptied
            items.append(node)
            stack.append(.sequence(start: start, anchor: anchor, items: items, size: total + size))
        case .mapping(let start, let anchor, var pairs, let pendingKey, let total):
            if let pendingKey {
                top = emptied
                pairs.append(YAMLNode.Pair(key: pendingKey, value: node))
                stack.append(.mapping(start: start, anchor: anchor, pairs: pairs, pendingKey: nil, size: total + size))
            } else {
                guard node.scalarText != nil else {
                    stack.append(top)
                    fail(Diagnostic(at: node.location, "mapping keys must be plain text, not \(node.kindDescription)"))
                    return
                }
                stack.append(.mapping(start: start, anchor: anchor, pairs: pairs, pendingKey: node, size: total + size))
            }
        }
    }
}
