#include "report/retransmission_runs.h"

#include <algorithm>
#include <unordered_map>

namespace rudp::report {

namespace {

// When the copy before this one was sent: its own time less the gap the
// analyzer measured, or (previous copy not captured) its own time.
int64_t previousCopyNs(const ana::RetransmissionEvent& e) {
  if (e.since_previous_ms < 0) return e.ts_ns;
  return e.ts_ns - static_cast<int64_t>(e.since_previous_ms * 1e6);
}

RetransmissionRun startRun(const ana::RetransmissionEvent& e) {
  RetransmissionRun r;
  r.dir = e.dir;
  r.seq = e.seq;
  r.count = 1;
  r.first_attempt = r.last_attempt = e.attempt;
  r.first_frame = r.last_frame = e.frame;
  r.start_ns = previousCopyNs(e);
  r.end_ns = e.ts_ns;
  return r;
}

bool continues(const RetransmissionRun& r, const ana::RetransmissionEvent& e) {
  return r.count > 0 && e.attempt == r.last_attempt + 1;
}

}  // namespace

std::vector<RetransmissionRun> timeoutRuns(const std::vector<ana::RetransmissionEvent>& events,
                                           uint32_t minCount) {
  std::vector<RetransmissionRun> done;
  std::unordered_map<uint32_t, RetransmissionRun> open;  // by seq
  auto close = [&](RetransmissionRun& r) {
    if (r.count >= minCount && r.count > 0) done.push_back(r);
    r.count = 0;
  };
  for (const auto& e : events) {
    RetransmissionRun& r = open[e.seq];
    if (e.cause != ana::RetxCause::Timeout) {
      close(r);
      continue;
    }
    if (continues(r, e)) {
      ++r.count;
      r.last_attempt = e.attempt;
      r.last_frame = e.frame;
      r.end_ns = e.ts_ns;
      continue;
    }
    close(r);
    r = startRun(e);
  }
  for (auto& [seq, r] : open) close(r);
  std::sort(done.begin(), done.end(), [](const RetransmissionRun& a, const RetransmissionRun& b) {
    return a.start_ns != b.start_ns ? a.start_ns < b.start_ns : a.first_frame < b.first_frame;
  });
  return done;
}

RetransmissionRun longestRunWithin(const std::vector<RetransmissionRun>& runs, int64_t from_ns,
                                   int64_t to_ns) {
  RetransmissionRun best;
  for (const auto& r : runs)
    if (r.end_ns >= from_ns && r.start_ns <= to_ns && r.count > best.count) best = r;
  return best;
}

}  // namespace rudp::report
