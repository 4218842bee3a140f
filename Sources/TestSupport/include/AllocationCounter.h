#ifndef JACKTAP_ALLOCATION_COUNTER_H
#define JACKTAP_ALLOCATION_COUNTER_H
#include <stdint.h>

/// Starts counting heap allocations (malloc, calloc, realloc, aligned forms) made on the calling thread.
void jacktap_allocations_begin(void);
/// Stops counting on the calling thread and returns how many allocations it made since begin.
int64_t jacktap_allocations_end(void);
#endif
