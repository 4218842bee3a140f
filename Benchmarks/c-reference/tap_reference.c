/* The C reference for jacktap's tap benchmark: the classic meter inner loop (sample peak + sum of squares
 * per channel per period, as jack_meter and most JACK meters do it), compiled with gcc -O2 by
 * Benchmarks/run and timed exactly like the Swift tap (median of 15 runs). It does less than jacktap's
 * tap, which also sanitises NaN/Inf/denormals and copies every frame into the ring. */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static uint64_t now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static volatile float sink_peak, sink_sum;

static void period(const float *input, int ports, int frames, float *peaks, float *sums) {
    for (int c = 0; c < ports; c++) {
        const float *p = input + (size_t)c * frames;
        float peak = peaks[c], sum = 0;
        for (int i = 0; i < frames; i++) {
            float a = fabsf(p[i]);
            if (a > peak) peak = a;
            sum += p[i] * p[i];
        }
        peaks[c] = peak;
        sums[c] += sum;
    }
}

int main(void) {
    const double rate = 48000;
    const int port_counts[] = {1, 8, 64}, frame_counts[] = {64, 256, 1024};
    printf("# c_tap\tports\tframes\tns_per_port_frame\tpercent_of_period\n");
    for (int pi = 0; pi < 3; pi++) {
        for (int fi = 0; fi < 3; fi++) {
            int ports = port_counts[pi], frames = frame_counts[fi];
            float *input = malloc(sizeof(float) * ports * frames);
            float *peaks = calloc(ports, sizeof(float)), *sums = calloc(ports, sizeof(float));
            uint32_t seed = 1;
            for (int i = 0; i < ports * frames; i++) {
                seed = seed * 1664525u + 1013904223u;
                input[i] = (float)(int32_t)seed / 2147483647.0f * 0.5f;
            }
            int repeats = 2000000 / (ports * frames);
            if (repeats < 1) repeats = 1;
            double samples[15];
            for (int r = 0; r < 15; r++) {
                uint64_t start = now();
                for (int k = 0; k < repeats; k++) period(input, ports, frames, peaks, sums);
                samples[r] = (double)(now() - start) / repeats;
            }
            qsort(samples, 15, sizeof(double), compare);
            double ns = samples[7];
            sink_peak = peaks[0];
            sink_sum = sums[0];
            printf("c_tap\t%d\t%d\t%g\t%g\n", ports, frames, ns / (ports * frames), 100 * ns / (frames / rate * 1e9));
            free(input);
            free(peaks);
            free(sums);
        }
    }
    return 0;
}
