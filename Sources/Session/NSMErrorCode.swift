/// The NSM API's error codes ("Error Code Definitions"), sent in `/error` replies. A client answers `open`
/// with ``general``, ``badProject``, ``createFailed``, ``unsavedChanges`` or ``notNow``, and `save` with
/// ``general``, ``saveFailed`` or ``notNow``; the server refuses an announce with ``general``,
/// ``incompatibleAPI`` or ``blacklisted``.
public enum NSMErrorCode: Int32, Sendable, Equatable, CaseIterable {
    /// `ERR_GENERAL`: general error.
    case general = -1
    /// `ERR_INCOMPATIBLE_API`: the client's API major version is newer than the server's.
    case incompatibleAPI = -2
    /// `ERR_BLACKLISTED`: the client has been blacklisted.
    case blacklisted = -3
    /// `ERR_LAUNCH_FAILED`: a server-control launch failed.
    case launchFailed = -4
    /// `ERR_NO_SUCH_FILE`: no such file.
    case noSuchFile = -5
    /// `ERR_NO_SESSION_OPEN`: no session is open.
    case noSessionOpen = -6
    /// `ERR_UNSAVED_CHANGES`: unsaved changes would be lost.
    case unsavedChanges = -7
    /// `ERR_NOT_NOW`: the operation cannot be completed at this time (e.g. `save` before `open`).
    case notNow = -8
    /// `ERR_BAD_PROJECT`: an existing project file was found to be corrupt.
    case badProject = -9
    /// `ERR_CREATE_FAILED`: a new project could not be created.
    case createFailed = -10

    /// The `save` table names `ERR_SAVE_FAILED` but the code table gives it no number; nsmd's own header
    /// (src/nsmd.cpp at API 1.1.1) and client header (extras/nsm.h) define none either, so a failed save is
    /// reported as the general error.
    public static let saveFailed = NSMErrorCode.general
}
