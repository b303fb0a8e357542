// The first-use harnesses' shared part: race_run starts RACE_THREADS threads that wait at a barrier (with STAGGER set,
// then start 0-3 ms apart: first uses that overlap part way, not only at once), each runs `work` (the process's first
// use of a library, hashed), then runs `work` once more alone and compares every hash with it. It prints the result
// and returns the exit status: 0 the same, 1 a mismatch.
#ifndef LUX_RACE_H
#define LUX_RACE_H
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

enum { RACE_THREADS = 4 };

/// FNV-1a of `n` bytes, continuing from `h` (RACE_FNV_START to begin).
#define RACE_FNV_START 1469598103934665603ull
static inline uint64_t fnv(uint64_t h, const uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

typedef struct {
    pthread_barrier_t *barrier;
    uint64_t (*work)(void);
    uint64_t hash;
} race_slot;

static void *race_thread(void *arg) {
    race_slot *slot = (race_slot *)arg;
    pthread_barrier_wait(slot->barrier);
    if (getenv("STAGGER")) usleep((unsigned)(((uintptr_t)slot * 2654435761u ^ (unsigned)getpid() * 40503u) % 3000));
    slot->hash = slot->work();
    return NULL;
}

static inline int race_run(const char *name, uint64_t (*work)(void)) {
    pthread_barrier_t barrier;
    pthread_t threads[RACE_THREADS];
    race_slot slots[RACE_THREADS];
    pthread_barrier_init(&barrier, NULL, RACE_THREADS);
    for (int i = 0; i < RACE_THREADS; i++) {
        slots[i].barrier = &barrier;
        slots[i].work = work;
        pthread_create(&threads[i], NULL, race_thread, &slots[i]);
    }
    for (int i = 0; i < RACE_THREADS; i++) pthread_join(threads[i], NULL);
    uint64_t reference = work();
    int bad = 0;
    for (int i = 0; i < RACE_THREADS; i++) bad |= slots[i].hash != reference;
    printf("%s ref %016llx %s\n", name, (unsigned long long)reference, bad ? "MISMATCH" : "same");
    return bad;
}
#endif
