import Strata

/// What the generated `<Database>PostgresQueries` call to bind a parameter that PostgreSQL types
/// narrower than Swift's `Int`: `int4` or `int2` (`generate_series(1, :n)`, `substr(name, :from)`),
/// as `strata-postgres prepare` recorded it. The statement keeps the server's parameter type
/// (binding a `BIGINT` instead could leave a function without a match), and a value that does
/// not fit is an error, never a wrapped number.
///
/// ```swift
/// var bindings = PostgresBindings()
/// bindings.append(try PostgresQueryValues.int32(42, parameter: "n"))
/// ```
public enum PostgresQueryValues {
    /// `value` as an `int4` parameter; throws a `StrataError` of kind `.invalidValue` when it is
    /// outside Int32's range.
    public static func int32(_ value: Int, parameter: String) throws -> Int32 {
        guard let narrow = Int32(exactly: value) else { throw outOfRange(value, parameter: parameter, type: "int4") }
        return narrow
    }

    /// `value` as an `int2` parameter; throws a `StrataError` of kind `.invalidValue` when it is
    /// outside Int16's range.
    public static func int16(_ value: Int, parameter: String) throws -> Int16 {
        guard let narrow = Int16(exactly: value) else { throw outOfRange(value, parameter: parameter, type: "int2") }
        return narrow
    }

    static func outOfRange(_ value: Int, parameter: String, type: String) -> StrataError {
        StrataError(kind: .invalidValue, message: "parameter :\(parameter) is \(value), which does not fit PostgreSQL's \(type) the statement takes there")
    }
}
