/// Loops over Float arrays written eight lanes at a time.
///
/// The compiler keeps a floating-point sum in program order, one add after another, each waiting on the last
/// (no fast-math in Swift), so it cannot vectorise a reduction by itself. These loops keep eight partial sums
/// (or maxima) and combine them at the end: the same figures to within rounding, at a fraction of the time.
/// The tempo/phase model's pass over its 7,500 states, then made every frame, went from a third of a port's rhythm
/// analysis to a tenth (perf, `jacktap analyze`); SuperFlux's sums over its bins and YIN's power spectrum
/// likewise. Complex values are FFTW's, real and imaginary parts interleaved.
enum VectorLoops {
    typealias Lanes = SIMD8<Float>

    /// `count` rounded up to whole lanes: buffers padded so to a loop's end need no element-by-element tail.
    static func wholeLanes(_ count: Int) -> Int {
        (count + Lanes.scalarCount - 1) / Lanes.scalarCount * Lanes.scalarCount
    }

    /// The sum of `count` values.
    static func sum(_ values: UnsafePointer<Float>, count: Int) -> Float {
        var lanes = Lanes(repeating: 0)
        var i = 0
        while i + 8 <= count {
            lanes += load(values + i)
            i += 8
        }
        var total = lanes.sum()
        while i < count {
            total += values[i]
            i += 1
        }
        return total
    }

    /// The dot product of `count` values of `a` and `b`.
    static func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> Float {
        var lanes = Lanes(repeating: 0)
        var i = 0
        while i + 8 <= count {
            lanes += load(a + i) * load(b + i)
            i += 8
        }
        var total = lanes.sum()
        while i < count {
            total += a[i] * b[i]
            i += 1
        }
        return total
    }

    /// The sum of the squares of `count` values.
    static func sumOfSquares(_ values: UnsafePointer<Float>, count: Int) -> Float {
        var lanes = Lanes(repeating: 0)
        var i = 0
        while i + 8 <= count {
            let v = load(values + i)
            lanes += v * v
            i += 8
        }
        var total = lanes.sum()
        while i < count {
            total += values[i] * values[i]
            i += 1
        }
        return total
    }

    /// The sum over i in 0..<count of max(0, max(new[i], floor) − max(old[i], floor)): how much `new` rises
    /// above `old`, ignoring what lies below `floor` (−∞: everything counts).
    static func rise(from old: UnsafePointer<Float>, to new: UnsafePointer<Float>, count: Int,
                     floor: Float = -.infinity) -> Float {
        var lanes = Lanes(repeating: 0)
        let bottom = Lanes(repeating: floor)
        var i = 0
        while i + 8 <= count {
            lanes += risen(from: load(old + i), to: load(new + i), floor: bottom)
            i += 8
        }
        var total = lanes.sum()
        while i < count {
            addRise(from: old[i], to: new[i], floor: floor, into: &total)
            i += 1
        }
        return total
    }

    /// `rise(from: old, to: new, count: count)` and `rise(from: old, to: new, count: count, floor: floor)` in one
    /// pass over the values: the same two sums to the bit, for SuperFlux's picking flux and its strong share.
    static func rises(from old: UnsafePointer<Float>, to new: UnsafePointer<Float>, count: Int, floor: Float)
        -> (all: Float, aboveFloor: Float) {
        var lanes = Lanes(repeating: 0), flooredLanes = Lanes(repeating: 0)
        let none = Lanes(repeating: -.infinity), bottom = Lanes(repeating: floor)
        var i = 0
        while i + 8 <= count {
            let a = load(new + i), b = load(old + i)
            lanes += risen(from: b, to: a, floor: none)
            flooredLanes += risen(from: b, to: a, floor: bottom)
            i += 8
        }
        var total = lanes.sum(), flooredTotal = flooredLanes.sum()
        while i < count {
            addRise(from: old[i], to: new[i], floor: -.infinity, into: &total)
            addRise(from: old[i], to: new[i], floor: floor, into: &flooredTotal)
            i += 1
        }
        return (total, flooredTotal)
    }

    /// max(0, max(new, floor) − max(old, floor)), lane by lane.
    @inline(__always)
    private static func risen(from old: Lanes, to new: Lanes, floor bottom: Lanes) -> Lanes {
        var (a, b) = (new, old)
        a.replace(with: bottom, where: a .< bottom)
        b.replace(with: bottom, where: b .< bottom)
        var d = a - b
        d.replace(with: Lanes(repeating: 0), where: d .< Lanes(repeating: 0))
        return d
    }

    @inline(__always)
    private static func addRise(from old: Float, to new: Float, floor: Float, into total: inout Float) {
        let d = max(new, floor) - max(old, floor)
        if d > 0 { total += d }
    }

    /// The magnitudes of `count` complex values (interleaved real and imaginary parts, as FFTW writes them)
    /// into `magnitudes`; returns the largest.
    static func magnitudes(of complex: UnsafePointer<Float>, count: Int, into magnitudes: UnsafeMutablePointer<Float>)
        -> Float {
        var maxima = Lanes(repeating: 0)
        var i = 0
        while i + 8 <= count {
            let pairs = UnsafeRawPointer(complex + 2 * i).loadUnaligned(as: SIMD16<Float>.self)
            let (re, im) = (pairs.evenHalf, pairs.oddHalf)
            let magnitude = (re * re + im * im).squareRoot()
            UnsafeMutableRawPointer(magnitudes + i).storeBytes(of: magnitude, as: Lanes.self)
            maxima.replace(with: magnitude, where: magnitude .> maxima)
            i += 8
        }
        var largest = maxima.max()
        while i < count {
            let (re, im) = (complex[2 * i], complex[2 * i + 1])
            magnitudes[i] = (re * re + im * im).squareRoot()
            largest = max(largest, magnitudes[i])
            i += 1
        }
        return largest
    }

    /// Replaces each of `count` complex values (interleaved) by its squared magnitude, imaginary part 0.
    static func squareMagnitudes(_ complex: UnsafeMutablePointer<Float>, count: Int) {
        var i = 0
        while i + 8 <= count {
            let pairs = UnsafeRawPointer(complex + 2 * i).loadUnaligned(as: SIMD16<Float>.self)
            let (re, im) = (pairs.evenHalf, pairs.oddHalf)
            var power = SIMD16<Float>(repeating: 0)
            power.evenHalf = re * re + im * im
            UnsafeMutableRawPointer(complex + 2 * i).storeBytes(of: power, as: SIMD16<Float>.self)
            i += 8
        }
        while i < count {
            let (re, im) = (complex[2 * i], complex[2 * i + 1])
            complex[2 * i] = re * re + im * im
            complex[2 * i + 1] = 0
            i += 1
        }
    }

    /// Multiplies `count` values by `factor` in place; returns the sum and the largest of the results.
    static func scale(_ values: UnsafeMutablePointer<Float>, count: Int, by factor: Float)
        -> (sum: Float, maximum: Float) {
        var sums = Lanes(repeating: 0)
        var maxima = Lanes(repeating: -.infinity)
        var i = 0
        while i + 8 <= count {
            let scaled = load(values + i) * factor
            UnsafeMutableRawPointer(values + i).storeBytes(of: scaled, as: Lanes.self)
            sums += scaled
            maxima.replace(with: scaled, where: scaled .> maxima)
            i += 8
        }
        var total = sums.sum()
        var largest = maxima.max()
        while i < count {
            let scaled = values[i] * factor
            values[i] = scaled
            total += scaled
            largest = max(largest, scaled)
            i += 1
        }
        return (total, largest)
    }

    /// `target[i] += factor · source[i]` for i in 0..<count.
    static func addScaled(_ source: UnsafePointer<Float>, times factor: Float, into target: UnsafeMutablePointer<Float>,
                          count: Int) {
        var i = 0
        while i + 8 <= count {
            let sum = load(target + i) + load(source + i) * factor
            UnsafeMutableRawPointer(target + i).storeBytes(of: sum, as: Lanes.self)
            i += 8
        }
        while i < count {
            target[i] += factor * source[i]
            i += 1
        }
    }

    /// `target[i] = max(a[i], b[i])` for i in 0..<count, as Swift's `max` (`b` on a tie, so max(+0, −0) is −0);
    /// `target` may be `a` or `b`.
    static func maximum(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, into target: UnsafeMutablePointer<Float>,
                        count: Int) {
        var i = 0
        while i + 8 <= count {
            var larger = load(a + i)
            let other = load(b + i)
            larger.replace(with: other, where: other .>= larger)
            UnsafeMutableRawPointer(target + i).storeBytes(of: larger, as: Lanes.self)
            i += 8
        }
        while i < count {
            target[i] = max(a[i], b[i])
            i += 1
        }
    }

    private static func load(_ pointer: UnsafePointer<Float>) -> Lanes {
        UnsafeRawPointer(pointer).loadUnaligned(as: Lanes.self)
    }
}
