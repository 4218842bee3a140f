// Counts heap allocations per thread, for the tests that prove the real-time paths never allocate.
//
// The test executable defines malloc and friends itself, so every allocation in the process (the Swift
// runtime's included) comes through here; each forwards to glibc's __libc_* entry points. Counting is a
// thread-local flag and counter: nothing here allocates, locks or makes a syscall, and other threads
// (XCTest's, libjack's) are not counted.
#define _GNU_SOURCE
#include "AllocationCounter.h"
#include <stddef.h>
#include <errno.h>
#include <pthread.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static __thread int counting;
static __thread int64_t count;

static pthread_t watched;
static _Atomic int watching;
static _Atomic int64_t watched_count;

static inline void note(void) {
    if (counting) count++;
    if (watching && pthread_equal(pthread_self(), watched)) watched_count++;
}

void jacktap_allocations_watch(pthread_t thread) {
    watched = thread;
    watched_count = 0;
    watching = 1;
}

int64_t jacktap_allocations_unwatch(void) {
    watching = 0;
    return watched_count;
}

void jacktap_allocations_begin(void) { count = 0; counting = 1; }
int64_t jacktap_allocations_end(void) { counting = 0; return count; }

void *malloc(size_t n) { note(); return __libc_malloc(n); }
void *calloc(size_t k, size_t n) { note(); return __libc_calloc(k, n); }
void *realloc(void *p, size_t n) { note(); return __libc_realloc(p, n); }
void free(void *p) { __libc_free(p); }
void *memalign(size_t a, size_t n) { note(); return __libc_memalign(a, n); }
void *aligned_alloc(size_t a, size_t n) { note(); return __libc_memalign(a, n); }
int posix_memalign(void **out, size_t a, size_t n) {
    note();
    void *p = __libc_memalign(a, n);
    if (!p) return ENOMEM;
    *out = p;
    return 0;
}
