/// A C library error number, kept as the number so that recording one allocates nothing.
struct Errno: Error, Equatable, CustomStringConvertible {
    /// The `errno` value.
    var rawValue: Int32

    /// The thread's `errno`, read right after a failed call.
    static var current: Errno { Errno(rawValue: Syscalls.currentErrno) }

    /// The C library's message for the number, e.g. "Connection refused".
    var description: String { Syscalls.errorMessage(rawValue) }
}

/// A `getaddrinfo` failure: its `EAI_*` code, and the `errno` when the code is `EAI_SYSTEM`.
struct AddressInfoError: Error, Equatable, CustomStringConvertible {
    /// The `EAI_*` code returned by `getaddrinfo`.
    var code: Int32
    /// The `errno` that explains an `EAI_SYSTEM` code.
    var systemError: Errno?

    /// The resolver's message, e.g. "Name or service not known".
    var description: String {
        if let systemError { return systemError.description }
        return Syscalls.addressInfoErrorMessage(code)
    }
}
