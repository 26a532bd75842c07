// Runs of consecutive timeout retransmissions of one seq: the sender's timer
// fired again and again (exponential backoff) with no ack in between.
#pragma once
#include <cstdint>
#include <vector>

#include "analyzers/events.h"

namespace rudp::report {

struct RetransmissionRun {
  Direction dir{};
  uint32_t seq = 0;
  uint32_t count = 0;  // timeout copies in a row
  uint32_t first_attempt = 0, last_attempt = 0;
  uint64_t first_frame = 0, last_frame = 0;  // first and last copy of the run
  int64_t start_ns = 0;                      // the copy before the run (its timer started the wait)
  int64_t end_ns = 0;                        // the run's last copy
  double waitedMs() const { return static_cast<double>(end_ns - start_ns) / 1e6; }
};

// Every run of at least `minCount` timeout copies of one seq, in the order of
// their first copy. `events` are one direction's retransmissions in time
// order. A run continues while each copy is a timeout copy whose attempt
// number follows the previous copy's; a fast or spurious copy, or a missing
// attempt number, ends it.
std::vector<RetransmissionRun> timeoutRuns(const std::vector<ana::RetransmissionEvent>& events,
                                           uint32_t minCount);

// The longest run within [from_ns, to_ns] (count 0 when none).
RetransmissionRun longestRunWithin(const std::vector<RetransmissionRun>& runs, int64_t from_ns,
                                   int64_t to_ns);

}  // namespace rudp::report
