import Glibc

/// Shell-style name patterns (`*`, `?`, `[..]`), as JACK users write them for ports: fnmatch, wrapped once
/// for every module that picks ports by name (sources to connect, ports to analyse).
public enum Glob {
    /// Whether `pattern` matches the whole of `name`.
    public static func matches(_ pattern: String, _ name: String) -> Bool {
        fnmatch(pattern, name, 0) == 0
    }
}
