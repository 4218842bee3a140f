import Session
import XCTest

/// `NSM_URL` in liblo's form, `osc.udp://HOST:PORT/`, and what is not.
final class NSMURLTests: XCTestCase {
    func testURLParsing() throws {
        XCTAssertEqual(try NSMURL(parsing: "osc.udp://studio:17433/"), NSMURL(host: "studio", port: 17433))
        XCTAssertEqual(try NSMURL(parsing: "osc.udp://127.0.0.1:9000"), NSMURL(host: "127.0.0.1", port: 9000))
        XCTAssertEqual(try NSMURL(parsing: "OSC.UDP://[::1]:9000/"), NSMURL(host: "::1", port: 9000))
        XCTAssertEqual(NSMURL(host: "::1", port: 9000).description, "osc.udp://[::1]:9000/")
        XCTAssertEqual(NSMURL(host: "studio", port: 17433).description, "osc.udp://studio:17433/")
    }

    func testURLsThatAreNotUDPOrHaveNoHostOrPortAreErrors() {
        func error(_ text: String) -> NSMURLError? {
            do { _ = try NSMURL(parsing: text); return nil } catch { return error }
        }
        XCTAssertEqual(error("osc.tcp://studio:17433/"), .unsupportedProtocol(text: "osc.tcp://studio:17433/", scheme: "osc.tcp"))
        XCTAssertEqual(error("http://studio:80/"), .notAnOSCURL(text: "http://studio:80/"))
        XCTAssertEqual(error("studio:17433"), .notAnOSCURL(text: "studio:17433"))
        XCTAssertEqual(error("osc.udp://studio/"), .missingPort(text: "osc.udp://studio/"))
        XCTAssertEqual(error("osc.udp://:17433/"), .emptyHost(text: "osc.udp://:17433/"))
        XCTAssertEqual(error("osc.udp://studio:0/"), .invalidPort(text: "osc.udp://studio:0/", port: "0"))
        XCTAssertEqual(error("osc.udp://studio:70000/"), .invalidPort(text: "osc.udp://studio:70000/", port: "70000"))
        XCTAssertEqual(error("osc.udp://studio:12a/"), .invalidPort(text: "osc.udp://studio:12a/", port: "12a"))
        XCTAssertEqual(error("osc.udp://[::1/"), .missingPort(text: "osc.udp://[::1/"))
    }

    func testAnUnsetOrEmptyNSMURLMeansNoSessionManager() throws {
        XCTAssertNil(try NSMClient.url(from: [:]))
        XCTAssertNil(try NSMClient.url(from: ["NSM_URL": ""]))
        XCTAssertEqual(try NSMClient.url(from: ["NSM_URL": "osc.udp://localhost:5000/"]), NSMURL(host: "localhost", port: 5000))
        XCTAssertThrowsError(try NSMClient.url(from: ["NSM_URL": "nonsense"]))
    }

    func testCapabilitiesAreColonSeparatedAsTheAPIWritesThem() {
        XCTAssertEqual(NSMCapabilities().text, "")
        XCTAssertEqual(NSMCapabilities([.dirty]).text, ":dirty:")
        XCTAssertEqual(NSMCapabilities([.message, .switch, .optionalGUI]).text, ":switch:message:optional-gui:")
    }
}
