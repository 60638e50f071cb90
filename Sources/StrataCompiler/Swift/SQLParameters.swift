/// Finds the `:name` parameters of an SQL text the way SQLite numbers them: distinct names in
/// order of first appearance, skipping string literals, quoted identifiers and comments.
enum SQLParameters {
    static func names(in sql: String) -> [String] {
        var names: [String] = []
        let scalars = Array(sql.unicodeScalars)
        var index = 0
        func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "$" || scalar.value > 0x7F
        }
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "'", "\"", "`":
                // A quoted string or identifier; a doubled quote stays inside.
                index += 1
                while index < scalars.count {
                    if scalars[index] == scalar {
                        if index + 1 < scalars.count, scalars[index + 1] == scalar {
                            index += 2
                            continue
                        }
                        break
                    }
                    index += 1
                }
                index += 1
            case "[":
                while index < scalars.count, scalars[index] != "]" { index += 1 }
                index += 1
            case "-" where index + 1 < scalars.count && scalars[index + 1] == "-":
                while index < scalars.count, scalars[index] != "\n" { index += 1 }
            case "/" where index + 1 < scalars.count && scalars[index + 1] == "*":
                index += 2
                while index + 1 < scalars.count, !(scalars[index] == "*" && scalars[index + 1] == "/") { index += 1 }
                index += 2
            case ":", "@", "$":
                var end = index + 1
                while end < scalars.count, isNameCharacter(scalars[end]) { end += 1 }
                if end > index + 1 {
                    var name = ""
                    name.unicodeScalars.append(contentsOf: scalars[(index + 1)..<end])
                    if !names.contains(name) { names.append(name) }
                }
                index = end
            default:
                index += 1
            }
        }
        return names
    }
}
