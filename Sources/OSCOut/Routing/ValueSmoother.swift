import Foundation

/// One-pole smoothing of each argument of each address, in audio time, with separate time constants for
/// rising (attack) and falling (release) values: what lighting wants from a level (fast up, slow down)
/// without the flicker of raw meter ticks.
///
/// For a step held from time t0, the output follows y(t) = x + (y(t0) − x)·exp(−(t − t0)/τ): after each
/// update over dt, y += (1 − exp(−dt/τ))·(x − y), with τ the attack when x > y and the release otherwise.
/// Because the coefficient is computed from dt, the result does not depend on the tick rate.
struct ValueSmoother {
    /// Time constants in seconds; 0 disables that direction.
    let attack: Double
    let release: Double
    /// Per address: audio time of the last update and the smoothed values.
    private var states: [String: (time: Double, values: [Double])] = [:]

    init(attack: Double, release: Double) {
        self.attack = attack
        self.release = release
    }

    /// Whether any smoothing happens.
    var isActive: Bool { attack > 0 || release > 0 }

    /// Smooths `values` (the float arguments of the message at `address`) in place at audio `time`.
    /// The first values of an address are taken as they are.
    mutating func smooth(_ values: inout [Double], address: String, time: Double) {
        guard let state = states[address], state.values.count == values.count else {
            states[address] = (time, values)
            return
        }
        let dt = max(0, time - state.time)
        for index in values.indices {
            let previous = state.values[index]
            let target = values[index]
            let tau = target > previous ? attack : release
            if tau > 0 {
                values[index] = previous + (1 - exp(-dt / tau)) * (target - previous)
            }
        }
        states[address] = (time, values)
    }
}
