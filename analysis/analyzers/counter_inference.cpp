#include "analyzers/counter_inference.h"

#include <algorithm>
#include <cstdlib>

#include "core/bytes.h"

namespace rudp::ana {

uint32_t fieldValue(const uint8_t* p, uint8_t size, bool littleEndian) {
  return uint32_t(readN(p, size, littleEndian));
}

int64_t signedStep(uint32_t from, uint32_t to, uint8_t size) {
  const uint64_t m = uint64_t{1} << (8 * size);
  const uint64_t d = (uint64_t{to} - uint64_t{from}) & (m - 1);
  return d >= m / 2 ? static_cast<int64_t>(d) - static_cast<int64_t>(m) : static_cast<int64_t>(d);
}

bool overlaps(const InferredField& a, const InferredField& b) {
  return a.found() && b.found() && a.offset < b.offset + b.size && b.offset < a.offset + a.size;
}

bool readField(const InferredField& f, const uint8_t* payload, size_t len, uint32_t& value) {
  if (!f.found() || len < size_t{f.offset} + f.size) return false;
  value = fieldValue(payload + f.offset, f.size, f.little_endian);
  return true;
}

void CounterFinder::add(const uint8_t* payload, size_t len) {
  if (full()) return;
  Head h;
  h.len = static_cast<uint8_t>(std::min(len, kBytes));
  std::copy(payload, payload + h.len, h.bytes.begin());
  sample_.push_back(h);
}

double CounterFinder::fitOf(const InferredField& f, double& stepOne) const {
  uint64_t pairs = 0, near = 0, ones = 0;
  const size_t end = size_t{f.offset} + f.size;
  for (size_t i = 1; i < sample_.size(); ++i) {
    const Head &a = sample_[i - 1], &b = sample_[i];
    if (a.len < end || b.len < end) continue;
    const int64_t step = signedStep(fieldValue(a.bytes.data() + f.offset, f.size, f.little_endian),
                                    fieldValue(b.bytes.data() + f.offset, f.size, f.little_endian), f.size);
    ++pairs;
    ones += step == 1;
    near += step != 0 && std::llabs(step) <= kNearSteps;
  }
  if (pairs < kMinPairs) return stepOne = 0;
  stepOne = double(ones) / double(pairs);
  return double(near) / double(pairs);
}

InferredField CounterFinder::find() const {
  InferredField best;
  forEachField(kBytes, true, [&](InferredField f) {
    double stepOne = 0;
    f.fit = fitOf(f, stepOne);
    if (stepOne < kMinStepOne || f.fit < kMinFit) return;
    // Wider fields and smaller offsets come first: only a better fit replaces them.
    if (!best.found() || f.fit > best.fit + 1e-12) best = f;
  });
  return best;
}

int64_t CounterTracker::stepFrom(uint32_t from, uint32_t to) const {
  return signedStep(from, to, field_.size);
}

void CounterTracker::addRun(int64_t first, Run run) {
  ++bursts_[static_cast<uint32_t>(run.length)];
  runs_[first] = run;
}

void CounterTracker::emitRun(const Run& run, EventSink* sink) const {
  if (!sink) return;
  LossEvent e;
  e.frame = run.frame;
  e.ts_ns = run.ts_ns;
  e.dir = dir_;
  e.first_seq = run.first_raw;
  e.count = static_cast<uint32_t>(run.length);
  sink->onLoss(e);
}

void CounterTracker::flush(EventSink* sink) {
  for (const auto& [first, run] : runs_) emitRun(run, sink);
  runs_.clear();
}

void CounterTracker::fillLate(int64_t n) {
  auto it = runs_.upper_bound(n);
  if (it == runs_.begin()) return;
  --it;
  const auto [first, run] = *it;
  const int64_t length = run.length;
  if (n >= first + length) return;
  if (--bursts_[static_cast<uint32_t>(length)] == 0) bursts_.erase(static_cast<uint32_t>(length));
  runs_.erase(it);
  // The pieces keep the packet that revealed the gap.
  if (n > first) addRun(first, Run{n - first, run.first_raw, run.frame, run.ts_ns});
  if (first + length - 1 > n)
    addRun(n + 1, Run{first + length - 1 - n, run.first_raw + static_cast<uint32_t>(n + 1 - first), run.frame,
                      run.ts_ns});
}

void CounterTracker::restart(int64_t n, EventSink* sink) {
  flush(sink);
  seen_.fill(false);
  high_ = n;
  seen(n) = true;
}

void CounterTracker::add(const uint8_t* payload, size_t len, int64_t ts_ns, uint64_t frame, EventSink* sink) {
  uint32_t raw = 0;
  if (!readField(field_, payload, len, raw)) return;
  if (!any_) {
    any_ = true;
    last_raw_ = raw;
    restart(0, sink);
    return;
  }
  const int64_t step = stepFrom(last_raw_, raw);
  if (std::llabs(step) > kMaxJump) {
    ++restarts_;
    last_raw_ = raw;
    restart(0, sink);
    return;
  }
  const int64_t n = high_ + step;
  if (step > 0) {
    for (int64_t k = high_ + 1; k < n && k <= high_ + int64_t{kWindow}; ++k) seen(k) = false;
    // Runs that left the window can no longer be filled: final now.
    while (!runs_.empty() && runs_.begin()->first + runs_.begin()->second.length <= n - int64_t{kWindow}) {
      emitRun(runs_.begin()->second, sink);
      runs_.erase(runs_.begin());
    }
    if (step > 1) {
      const uint64_t gap = static_cast<uint64_t>(step - 1);
      lost_ += gap;
      addRun(high_ + 1, Run{step - 1, static_cast<uint32_t>(raw - static_cast<uint32_t>(gap)), frame, ts_ns});
    }
    high_ = n;
    last_raw_ = raw;
    seen(n) = true;
    return;
  }
  // At or below the highest: seen before (a duplicate) or filling a gap late
  // (below the first number seen: late, but no loss was counted for it).
  if (n < 0) {
    ++reordered_;
    return;
  }
  if (high_ - n >= int64_t{kWindow} || seen(n)) {
    ++duplicates_;
    return;
  }
  seen(n) = true;
  ++reordered_;
  if (lost_ > 0) --lost_;
  fillLate(n);
}

}  // namespace rudp::ana
