#ifndef JACKTAP_ALLOCATION_COUNTER_H
#define JACKTAP_ALLOCATION_COUNTER_H
#include <stdint.h>

/// Starts counting heap allocations (malloc, calloc, realloc, aligned forms) made on the calling thread.
void jacktap_allocations_begin(void);
/// Stops counting on the calling thread and returns how many allocations it made since begin.
int64_t jacktap_allocations_end(void);
#include <pthread.h>

/// Starts counting the allocations made on `thread` (another thread: JACK's process thread).
void jacktap_allocations_watch(pthread_t thread);
/// Stops watching and returns the allocations `thread` made while watched.
int64_t jacktap_allocations_unwatch(void);
#endif
