import OSC
import OSCOut
import XCTest

/// `HOST:PORT,key=value…`: every key, the defaults, and errors that name the key.
final class DestinationSettingsTests: XCTestCase {
    func testEveryKeyIsRead() throws {
        let s = try DestinationSettings(parsing: "127.0.0.1:9000,filter=/a/{b,c}|//level,prefix=rig/,rate=10,plain,"
            + "scale=byte,floor=-50,ceiling=-6,attack=20,release=300,broadcast,ttl=4,interface=127.0.0.1,maxsize=512")
        XCTAssertEqual(s.destination.description, "127.0.0.1:9000")
        XCTAssertEqual(s.filters.map(\.pattern), ["/a/{b,c}", "//level"])
        XCTAssertEqual(s.prefix, "/rig")
        XCTAssertEqual(s.rate, 10)
        XCTAssertFalse(s.bundles)
        XCTAssertEqual(s.scale, .byte)
        XCTAssertEqual(s.floorDB, -50)
        XCTAssertEqual(s.ceilingDB, -6)
        XCTAssertEqual(s.attack, 0.020, accuracy: 1e-12)
        XCTAssertEqual(s.release, 0.300, accuracy: 1e-12)
        XCTAssertTrue(s.broadcast)
        XCTAssertEqual(s.ttl, 4)
        XCTAssertEqual(s.interface, "127.0.0.1")
        XCTAssertEqual(s.maxSize, 512)
    }

    func testCommandLineDefaultsApplyUnlessTheDestinationSetsItsOwn() throws {
        let plain = try DestinationSettings(parsing: "9000", defaultPrefix: "/x", defaultBundles: false)
        XCTAssertEqual(plain.prefix, "/x")
        XCTAssertFalse(plain.bundles)
        XCTAssertEqual(plain.scale, .db)
        XCTAssertEqual(plain.maxSize, 1400)
        XCTAssertNil(plain.rate)
        let own = try DestinationSettings(parsing: "9000,bundles=yes,prefix=", defaultPrefix: "/x", defaultBundles: false)
        XCTAssertTrue(own.bundles)
        XCTAssertEqual(own.prefix, "")
    }

    func testTheLimitedBroadcastAddressImpliesBroadcastAndMulticastIsRecognised() throws {
        XCTAssertTrue(try DestinationSettings(parsing: "255.255.255.255:7700").broadcast)
        XCTAssertTrue(try DestinationSettings(parsing: "239.1.2.3:7700").destination.isMulticast)
        XCTAssertFalse(try DestinationSettings(parsing: "127.0.0.1:7700").destination.isMulticast)
        XCTAssertTrue(try DestinationSettings(parsing: "[ff02::1]:7700,scale=unit").destination.isMulticast)
    }

    func testBadValuesNameTheKey() {
        let cases = ["9000,scale=loud": "scale=loud", "9000,colour=red": "'colour'", "9000,rate=0": "rate=0",
                     "9000,floor=5": "floor=5", "9000,maxsize=10": "maxsize=10", "9000,ttl=300": "ttl=300",
                     "9000,bundles=maybe": "bundles=maybe", "9000,filter=nope": "filter=nope",
                     "9000,prefix=/a b": "prefix=/a b", "9000,floor=-10,ceiling=-20": "ceiling",
                     "nohost,scale=unit": "'nohost'"]
        for (text, named) in cases {
            XCTAssertThrowsError(try DestinationSettings(parsing: text), text) { error in
                XCTAssertTrue("\(error)".contains(named), "\(text): \(error)")
            }
        }
    }
}
