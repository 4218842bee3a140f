#ifndef JACKTAP_LINK_H
#define JACKTAP_LINK_H
#include <stdint.h>

/* A C face for Ableton Link (Debian's ableton-link-dev, header-only C++), so the Swift side calls a few
   plain functions and never sees C++. Times are Link's clock (the host's monotonic clock), microseconds. */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct jacktap_link jacktap_link;

/* A Link peer at `bpm`, not enabled yet. */
jacktap_link *jacktap_link_create(double bpm);
void jacktap_link_destroy(jacktap_link *link);
/* Joins (1) or leaves (0) the session on the network. */
void jacktap_link_enable(jacktap_link *link, int enabled);
/* Peers seen besides this one. */
int jacktap_link_peers(const jacktap_link *link);
/* Link's clock now. */
int64_t jacktap_link_now(const jacktap_link *link);
/* The session's tempo, BPM, and its beat at `micros` with `quantum` beats per bar. */
double jacktap_link_tempo(const jacktap_link *link);
double jacktap_link_beat_at(const jacktap_link *link, int64_t micros, double quantum);
/* Leads the session: tempo `bpm` from `micros` on, and beat `beat` at `micros` (forced: jacktap follows the
   music, an external clock in Link's terms). */
void jacktap_link_lead(jacktap_link *link, double bpm, double beat, int64_t micros, double quantum);

#ifdef __cplusplus
}
#endif
#endif
