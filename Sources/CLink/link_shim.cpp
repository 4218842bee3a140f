// The only C++ in jacktap: Ableton Link behind the C functions of jacktap_link.h.
#include "jacktap_link.h"
#include <ableton/Link.hpp>
#include <chrono>

struct jacktap_link {
    ableton::Link link;
    explicit jacktap_link(double bpm) : link(bpm) {}
};

extern "C" {

jacktap_link *jacktap_link_create(double bpm) { return new jacktap_link(bpm); }

void jacktap_link_destroy(jacktap_link *link) { delete link; }

void jacktap_link_enable(jacktap_link *link, int enabled) { link->link.enable(enabled != 0); }

int jacktap_link_peers(const jacktap_link *link) { return static_cast<int>(link->link.numPeers()); }

int64_t jacktap_link_now(const jacktap_link *link) { return link->link.clock().micros().count(); }

double jacktap_link_tempo(const jacktap_link *link) { return link->link.captureAppSessionState().tempo(); }

double jacktap_link_beat_at(const jacktap_link *link, int64_t micros, double quantum) {
    return link->link.captureAppSessionState().beatAtTime(std::chrono::microseconds(micros), quantum);
}

void jacktap_link_lead(jacktap_link *link, double bpm, double beat, int64_t micros, double quantum) {
    auto state = link->link.captureAppSessionState();
    const auto time = std::chrono::microseconds(micros);
    state.setTempo(bpm, time);
    state.forceBeatAtTime(beat, time, quantum);
    link->link.commitAppSessionState(state);
}

}
