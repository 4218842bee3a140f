/* The reference loudness meter for jacktap's tests and benchmark: libebur128 (Debian's libebur128-dev, the
 * implementation ffmpeg's loudnorm, pyebur128 and many players use) driven the way a JACK meter would drive it.
 *
 *   gcc -O2 ebur128_reference.c -lebur128 -lsndfile -lm -o ebur128_reference
 *   ebur128_reference FILE [--step FRAMES]
 *
 * Reads FILE with libsndfile (as float, full scale 1.0), feeds libebur128 in chunks of STEP frames (default 48:
 * 1 ms at 48 kHz) and, after every chunk, evaluates momentary and short-term loudness to track their maxima
 * (Tech 3341 asks for max momentary at least every 9 ms; libebur128 itself keeps no maxima). Modes
 * M | S | I | LRA | SAMPLE_PEAK | TRUE_PEAK, without EBUR128_MODE_HISTOGRAM, so integrated and range come from
 * libebur128's exact block lists. Channel map: 1 channel = left (weight 1, a mono port); 2 = L R;
 * 5 = L R C Ls Rs; 6 = L R C LFE Ls Rs (LFE unused); other counts keep libebur128's default map.
 *
 * Prints one JSON line:
 *   {"integrated": LUFS, "range": LU, "range_10hz": LU, "max_momentary": LUFS, "max_shortterm": LUFS,
 *    "true_peak_dbtp": [per channel], "sample_peak_dbfs": [per channel], "seconds": CPU seconds}
 * "range" is libebur128's own loudness range, which takes a short-term value only every 1 s (after each 3 s
 * block its short_term_frame_counter restarts at 2 s), not at the >= 10 Hz of EBU Tech 3342: on material whose
 * short-term loudness moves steadily (a sweep) it differs from Tech 3342 by a few hundredths of an LU.
 * "range_10hz" applies Tech 3342's algorithm (absolute gate -70 LUFS, relative gate 20 LU below the energy mean,
 * 95th - 10th percentile at nearest rank round((n - 1) p)) to libebur128's short-term loudness of full 3 s
 * windows taken every 100 ms; to take them there, chunks are also cut at every 100 ms boundary.
 * Loudness and levels are floored at -200 (libebur128 returns -inf for silence; JSON has no -inf; jacktap
 * floors at -200 too). "seconds" is the process CPU time of the feeding loop alone — the file is decoded into
 * memory before it starts — i.e. the time spent in libebur128's add_frames and momentary/short-term calls.
 * Integrated, range and peaks are read once after the loop, outside the timing. */
#define _GNU_SOURCE
#include <ebur128.h>
#include <math.h>
#include <sndfile.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double floored(double db) {
    return (isnan(db) || db < -200.0) ? -200.0 : db;
}

static double level_db(double linear) {
    return linear > 0.0 ? floored(20.0 * log10(linear)) : -200.0;
}

static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* EBU Tech 3342 on short-term loudness values (LUFS); reorders `values`. */
static double tech3342_range(double *values, size_t count) {
    size_t kept = 0;
    double energy = 0.0;
    for (size_t i = 0; i < count; i++) {
        if (values[i] > -70.0) {
            energy += pow(10.0, values[i] / 10.0);
            values[kept++] = values[i];
        }
    }
    if (!kept) return 0.0;
    const double gate = 10.0 * log10(energy / (double)kept) - 20.0;
    size_t n = 0;
    for (size_t i = 0; i < kept; i++) {
        if (values[i] >= gate) values[n++] = values[i];
    }
    if (!n) return 0.0;
    qsort(values, n, sizeof *values, compare_doubles);
    return values[(size_t)((double)(n - 1) * 0.95 + 0.5)] - values[(size_t)((double)(n - 1) * 0.10 + 0.5)];
}

static int usage(const char *program) {
    fprintf(stderr, "usage: %s FILE [--step FRAMES]\n", program);
    return 2;
}

static void set_channel_map(ebur128_state *st, int channels) {
    static const int five[] = {EBUR128_LEFT, EBUR128_RIGHT, EBUR128_CENTER, EBUR128_LEFT_SURROUND,
                               EBUR128_RIGHT_SURROUND};
    static const int six[] = {EBUR128_LEFT, EBUR128_RIGHT, EBUR128_CENTER, EBUR128_UNUSED,
                              EBUR128_LEFT_SURROUND, EBUR128_RIGHT_SURROUND};
    const int *map = NULL;
    if (channels == 1) {
        ebur128_set_channel(st, 0, EBUR128_LEFT);
        return;
    }
    if (channels == 2) {
        ebur128_set_channel(st, 0, EBUR128_LEFT);
        ebur128_set_channel(st, 1, EBUR128_RIGHT);
        return;
    }
    if (channels == 5) map = five;
    if (channels == 6) map = six;
    if (map) {
        for (int c = 0; c < channels; c++) ebur128_set_channel(st, (unsigned)c, map[c]);
    }
}

int main(int argc, char **argv) {
    const char *path = NULL;
    long step = 48;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--step") == 0 && i + 1 < argc) {
            char *end = NULL;
            step = strtol(argv[++i], &end, 10);
            if (!end || *end || step <= 0) return usage(argv[0]);
        } else if (!path && argv[i][0] != '-') {
            path = argv[i];
        } else {
            return usage(argv[0]);
        }
    }
    if (!path) return usage(argv[0]);

    SF_INFO info;
    memset(&info, 0, sizeof info);
    SNDFILE *file = sf_open(path, SFM_READ, &info);
    if (!file) {
        fprintf(stderr, "ebur128_reference: %s: %s\n", path, sf_strerror(NULL));
        return 1;
    }
    const int channels = info.channels;
    const size_t frames = (size_t)info.frames;
    float *samples = malloc((frames ? frames : 1) * (size_t)channels * sizeof *samples);
    if (!samples) {
        fprintf(stderr, "ebur128_reference: out of memory\n");
        return 1;
    }
    sf_count_t got = sf_readf_float(file, samples, (sf_count_t)frames);
    sf_close(file);
    if (got < 0) got = 0;

    ebur128_state *st = ebur128_init((unsigned)channels, (unsigned long)info.samplerate,
                                     EBUR128_MODE_M | EBUR128_MODE_S | EBUR128_MODE_I | EBUR128_MODE_LRA |
                                         EBUR128_MODE_SAMPLE_PEAK | EBUR128_MODE_TRUE_PEAK);
    if (!st) {
        fprintf(stderr, "ebur128_reference: ebur128_init failed (%d channels, %d Hz)\n", channels,
                info.samplerate);
        return 1;
    }
    set_channel_map(st, channels);

    /* libebur128's 100 ms: (rate + 5) / 10 samples. */
    const size_t tenth = ((size_t)info.samplerate + 5) / 10;
    double *short_terms = malloc(((size_t)got / tenth + 1) * sizeof *short_terms);
    size_t short_term_count = 0;
    if (!short_terms) {
        fprintf(stderr, "ebur128_reference: out of memory\n");
        return 1;
    }

    double max_momentary = -HUGE_VAL, max_shortterm = -HUGE_VAL;
    const double start = cpu_seconds();
    for (size_t done = 0; done < (size_t)got;) {
        size_t n = (size_t)got - done < (size_t)step ? (size_t)got - done : (size_t)step;
        const size_t to_tenth = tenth - done % tenth;
        if (n > to_tenth) n = to_tenth;
        if (ebur128_add_frames_float(st, samples + done * (size_t)channels, n) != EBUR128_SUCCESS) {
            fprintf(stderr, "ebur128_reference: ebur128_add_frames_float failed\n");
            return 1;
        }
        done += n;
        double m, s;
        if (ebur128_loudness_momentary(st, &m) == EBUR128_SUCCESS && m > max_momentary) max_momentary = m;
        if (ebur128_loudness_shortterm(st, &s) == EBUR128_SUCCESS) {
            if (s > max_shortterm) max_shortterm = s;
            if (done % tenth == 0 && done >= 30 * tenth) short_terms[short_term_count++] = s;
        }
    }
    const double seconds = cpu_seconds() - start;

    double integrated = -HUGE_VAL, range = 0.0;
    ebur128_loudness_global(st, &integrated);
    ebur128_loudness_range(st, &range);

    const double range_10hz = tech3342_range(short_terms, short_term_count);

    printf("{\"integrated\": %.6f, \"range\": %.6f, \"range_10hz\": %.6f, \"max_momentary\": %.6f, "
           "\"max_shortterm\": %.6f, \"true_peak_dbtp\": [",
           floored(integrated), isnan(range) ? 0.0 : range, range_10hz, floored(max_momentary),
           floored(max_shortterm));
    for (int c = 0; c < channels; c++) {
        double peak = 0.0;
        ebur128_true_peak(st, (unsigned)c, &peak);
        printf("%s%.6f", c ? ", " : "", level_db(peak));
    }
    printf("], \"sample_peak_dbfs\": [");
    for (int c = 0; c < channels; c++) {
        double peak = 0.0;
        ebur128_sample_peak(st, (unsigned)c, &peak);
        printf("%s%.6f", c ? ", " : "", level_db(peak));
    }
    printf("], \"seconds\": %.6f}\n", seconds);

    ebur128_destroy(&st);
    free(short_terms);
    free(samples);
    return 0;
}
