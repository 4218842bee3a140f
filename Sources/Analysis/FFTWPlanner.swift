import CFFTW
import Synchronization

/// The one place jacktap calls FFTW. Only `fftwf_execute*` is thread-safe, so every planning and
/// freeing call goes through one lock; planning happens at start-up, never on the real-time thread.
enum FFTWPlanner {
    static let planning = Mutex<Void>(())

    /// A real-to-complex plan of size `size` over freshly allocated, SIMD-aligned buffers.
    static func makeRealForward(size: Int)
        -> (plan: fftwf_plan, input: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<fftwf_complex>) {
        planning.withLock { _ in
            let input = fftwf_alloc_real(size)!
            let output = fftwf_alloc_complex(size / 2 + 1)!
            // ESTIMATE plans in about a millisecond and runs within 10 % of MEASURE (4096-point r2c, measured:
            // 2.5 µs against 2.25 µs, and MEASURE takes ~180 ms to plan).
            let plan = fftwf_plan_dft_r2c_1d(Int32(size), input, output, UInt32(FFTW_ESTIMATE))!
            return (plan, input, output)
        }
    }

    /// A complex-to-real plan of size `size` from `input` (size / 2 + 1 bins) into `output` (size samples),
    /// over buffers the caller owns: a forward plan's, to run it back in place.
    static func makeRealInverse(size: Int, input: UnsafeMutablePointer<fftwf_complex>,
                                output: UnsafeMutablePointer<Float>) -> fftwf_plan {
        // The pointers cross the lock's closure as addresses: it may not capture non-Sendable values.
        let (inputAddress, outputAddress) = (UInt(bitPattern: input), UInt(bitPattern: output))
        return planning.withLock { _ in
            fftwf_plan_dft_c2r_1d(Int32(size), UnsafeMutablePointer(bitPattern: inputAddress),
                                  UnsafeMutablePointer(bitPattern: outputAddress), UInt32(FFTW_ESTIMATE))!
        }
    }

    static func execute(_ plan: fftwf_plan) { fftwf_execute(plan) }

    /// Frees a plan made by `makeRealInverse`; its buffers stay the caller's.
    static func destroy(_ plan: fftwf_plan) {
        planning.withLock { _ in fftwf_destroy_plan(plan) }
    }

    static func destroy(_ plan: fftwf_plan, _ input: UnsafeMutablePointer<Float>,
                        _ output: UnsafeMutablePointer<fftwf_complex>) {
        planning.withLock { _ in
            fftwf_destroy_plan(plan)
            fftwf_free(input)
            fftwf_free(output)
        }
    }
}
