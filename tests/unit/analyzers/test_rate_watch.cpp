// Rate drops and bursts of a ticking stream (analyzers/rate_watch.h), on
// packet times written out here: the run's first and last packets, its gaps,
// a stray gap inside, a silence ending it, one still going at the end.
#include <catch2/catch.hpp>

#include <vector>

#include "analyzers/rate_watch.h"

using namespace rudp;
using namespace rudp::ana;

namespace {

constexpr int64_t kMs = 1'000'000;

// Feeds `times` (ms) as frames 1, 2, ...; the silence threshold is 200 ms.
std::vector<RateChangeEvent> watch(const std::vector<double>& times) {
  RateWatch w(Direction::ServerToClient, 200 * kMs);
  uint64_t frame = 0;
  for (double t : times) w.add(int64_t(t * kMs), ++frame);
  return w.finish();
}

void every(std::vector<double>& times, double stepMs, double untilMs) {
  while (times.back() + stepMs < untilMs + 1e-9) times.push_back(times.back() + stepMs);
}

}  // namespace

TEST_CASE("a drop from 50 to 10 packets/s for 2 s, with a lost packet inside, is one drop") {
  std::vector<double> t{0};
  every(t, 20, 6000);  // 300 gaps at 50 Hz: the usual gap is 20 ms
  const size_t first = t.size() - 1;
  every(t, 100, 8000);                   // 20 gaps of 100 ms
  t.erase(t.begin() + long(first) + 5);  // one lost: a 200 ms gap, still slow, not a silence
  const size_t last = t.size() - 1;
  every(t, 20, 10000);
  const auto changes = watch(t);
  REQUIRE(changes.size() == 1);
  const RateChangeEvent& e = changes[0];
  CHECK(e.kind == RateChangeKind::Drop);
  CHECK(e.start_ns == 6000 * kMs);
  CHECK(e.end_ns == 8000 * kMs);
  CHECK(e.first_frame == first + 1);
  CHECK(e.last_frame == last + 1);
  CHECK(e.gaps == 19);
  CHECK(e.rate_hz == Approx(9.5));
  CHECK(e.usual_hz == Approx(50));
  CHECK(!e.open);
}

TEST_CASE("a burst with one usual gap inside stays one burst, and a drop lasting to the end is open") {
  std::vector<double> t{0};
  every(t, 20, 6000);
  every(t, 5, 6500);
  t.push_back(t.back() + 20);  // a stray usual gap
  every(t, 5, 7500);
  every(t, 20, 9000);
  every(t, 100, 11000);  // slower until the end
  const auto changes = watch(t);
  REQUIRE(changes.size() == 2);
  CHECK(changes[0].kind == RateChangeKind::Burst);
  CHECK(changes[0].start_ns == 6000 * kMs);
  CHECK(changes[0].end_ns == 7500 * kMs);
  CHECK(changes[0].gaps == 297);  // 100 gaps to 6500, the stray, 196 from 6520 to 7500
  CHECK(changes[1].kind == RateChangeKind::Drop);
  CHECK(changes[1].start_ns == 9000 * kMs);
  CHECK(changes[1].open);
}

TEST_CASE("short runs, two usual gaps in a row and a silence end or void a run") {
  std::vector<double> t{0};
  every(t, 20, 6000);
  every(t, 100, 6900);  // 0.9 s slow: too short
  every(t, 20, 7000);
  every(t, 100, 7600);
  t.push_back(t.back() + 20);
  t.push_back(t.back() + 20);  // two usual gaps: the run (0.6 s) ends, too short
  every(t, 100, 8200);
  t.push_back(t.back() + 500);  // a silence: ends the run (0.5 s)
  const double afterSilence = t.back();
  every(t, 100, afterSilence + 1100);  // 1.1 s slow after the silence, ended by the flow: open
  const auto changes = watch(t);
  REQUIRE(changes.size() == 1);
  CHECK(changes[0].start_ns == int64_t(afterSilence * kMs));
  CHECK(changes[0].end_ns == int64_t(t.back() * kMs));
  CHECK(changes[0].gaps == 11);
  CHECK(changes[0].open);
}
