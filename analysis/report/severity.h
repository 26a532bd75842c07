// How bad a problem is, so the list can put the worst first.
//
// Severity is milliseconds of harm to play:
// - an incident with a duration (a stall, a run of timeout retransmissions,
//   a loss burst) counts the time the data waited or the traffic that was
//   lost: a 1.5 s stall (1500) ranks above a 230 ms one (230);
// - a steady condition (RTT samples over the limit, packet loss) counts the
//   harm in a typical 10 s of play: its share x 10,000 ms, so 5 % of samples
//   over the limit (500) ranks like a 500 ms stall, whatever the length of
//   the connection;
// - capture-level warnings have fixed weights: a cut-off capture or
//   dissector errors (figures may be wrong or missing: 500), frames that
//   could not be decoded or were malformed (100), flows no dissector claims
//   (1: what they hide is unknown, and the list must not look all clear).
#pragma once
#include <cstdint>

#include "analyzers/events.h"
#include "report/retransmission_runs.h"

namespace rudp::report {

inline constexpr double kSteadyWindowMs = 10'000;
inline constexpr double kWrongFiguresSeverity = 500;
inline constexpr double kBadFramesSeverity = 100;
// Flows no dissector claims: below every measured problem, but listed.
inline constexpr double kNotDecodedSeverity = 1;

inline double stallSeverity(const ana::StallEvent& s) { return s.duration_ms; }
inline double runSeverity(const RetransmissionRun& r) { return r.waitedMs(); }
inline double burstSeverity(uint32_t lost, double packetGapMs) { return lost * packetGapMs; }
inline double rateSeverity(double share) { return share * kSteadyWindowMs; }

}  // namespace rudp::report
