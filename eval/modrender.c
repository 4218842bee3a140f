/* Renders a tracker module (.mod/.xm/.it/.s3m, anything libopenmpt opens) to raw 32-bit float mono and logs where
 * every pattern row starts, for the real-recording corpus (real_corpus.py compiles this with gcc at render time).
 *
 *     modrender MODULE OUT.f32 LOG.txt RATE SECONDS
 *
 * The module is read in blocks of BLOCK frames; after each block libopenmpt's current order, pattern, row, speed,
 * tempo and estimated BPM are read. libopenmpt advances its row when it starts rendering the row's first tick, so
 * a row whose (order, row) first shows after a block began within that block: the log line gives the block's
 * first frame, and the row started within [frame, frame + BLOCK). LOG lines:
 *     rate BLOCK
 *     frame order pattern row speed tempo estimated_bpm pattern_rows
 * and a last line "end FRAMES" (frames rendered).
 */
#include <libopenmpt/libopenmpt.h>
#include <stdio.h>
#include <stdlib.h>

#define BLOCK 8

int main(int argc, char **argv) {
    if (argc != 6) {
        fprintf(stderr, "usage: modrender MODULE OUT.f32 LOG.txt RATE SECONDS\n");
        return 2;
    }
    FILE *in = fopen(argv[1], "rb");
    if (!in) { perror(argv[1]); return 1; }
    fseek(in, 0, SEEK_END);
    long size = ftell(in);
    fseek(in, 0, SEEK_SET);
    char *data = malloc(size);
    if (fread(data, 1, size, in) != (size_t)size) { perror("read"); return 1; }
    fclose(in);
    int error = 0;
    openmpt_module *mod = openmpt_module_create_from_memory2(data, size, NULL, NULL, NULL, NULL, &error, NULL, NULL);
    if (!mod) { fprintf(stderr, "libopenmpt cannot open %s (%d)\n", argv[1], error); return 1; }
    openmpt_module_set_repeat_count(mod, 0);
    int rate = atoi(argv[4]);
    long limit = (long)(atof(argv[5]) * rate);
    FILE *out = fopen(argv[2], "wb");
    FILE *log = fopen(argv[3], "w");
    if (!out || !log) { perror("output"); return 1; }
    fprintf(log, "%d %d\n", rate, BLOCK);
    float buffer[BLOCK];
    long frame = 0;
    int last_order = -1, last_row = -1;
    while (frame < limit) {
        size_t n = openmpt_module_read_float_mono(mod, rate, BLOCK, buffer);
        if (n == 0) break;
        int order = openmpt_module_get_current_order(mod), row = openmpt_module_get_current_row(mod);
        if (order != last_order || row != last_row) {
            int pattern = openmpt_module_get_current_pattern(mod);
            fprintf(log, "%ld %d %d %d %d %d %.6f %d\n", frame, order, pattern, row,
                    openmpt_module_get_current_speed(mod), openmpt_module_get_current_tempo(mod),
                    openmpt_module_get_current_estimated_bpm(mod), openmpt_module_get_pattern_num_rows(mod, pattern));
            last_order = order;
            last_row = row;
        }
        fwrite(buffer, sizeof(float), n, out);
        frame += n;
    }
    fprintf(log, "end %ld\n", frame);
    fclose(out);
    fclose(log);
    openmpt_module_destroy(mod);
    free(data);
    return 0;
}
