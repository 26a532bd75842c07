#include "analyzers/field_inference.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_set>
#include <vector>

namespace rudp::ana {

namespace {

bool covers(const SampledPacket& p, const InferredField& f) { return p.head.len >= f.offset + f.size; }

uint32_t valueIn(const SampledPacket& p, const InferredField& f) {
  return fieldValue(p.head.bytes.data() + f.offset, f.size, f.little_endian);
}

bool overlapsAny(const InferredField& f, std::span<const InferredField> taken) {
  return std::any_of(taken.begin(), taken.end(), [&](const InferredField& t) { return overlaps(f, t); });
}

struct Unwrapped {
  std::vector<double> value;  // the field's value, unwrapped from the first packet's
  std::vector<int64_t> ns;
  uint64_t pairs = 0, backwards = 0;
};

Unwrapped unwrap(std::span<const SampledPacket> sample, const InferredField& f) {
  Unwrapped u;
  int64_t acc = 0;
  uint32_t prev = 0;
  for (const SampledPacket& p : sample) {
    if (!covers(p, f)) continue;
    const uint32_t raw = valueIn(p, f);
    if (!u.value.empty()) {
      const int64_t step = signedStep(prev, raw, f.size);
      acc += step;
      ++u.pairs;
      u.backwards += step < 0;
    }
    prev = raw;
    u.value.push_back(double(acc));
    u.ns.push_back(p.ns);
  }
  return u;
}

// How well `u` reads as a clock of `unitHz`: the share of packets whose
// capture time minus field time lies within kTsSlackMs of the median, and the
// mean distance of those from it.
std::pair<double, double> clockFit(const Unwrapped& u, double unitHz) {
  std::vector<double> r(u.value.size());
  for (size_t i = 0; i < r.size(); ++i) r[i] = double(u.ns[i] - u.ns[0]) / 1e6 - u.value[i] * 1e3 / unitHz;
  std::vector<double> sorted = r;
  std::nth_element(sorted.begin(), sorted.begin() + long(sorted.size() / 2), sorted.end());
  const double median = sorted[sorted.size() / 2];
  uint64_t in = 0;
  double spread = 0;
  for (double x : r)
    if (std::abs(x - median) <= kTsSlackMs) ++in, spread += std::abs(x - median);
  return {double(in) / double(r.size()), in ? spread / double(in) : 0};
}

}  // namespace

InferredField findTimestamp(std::span<const SampledPacket> sample, const InferredField& seq) {
  InferredField best;
  // The whole sample first (no field is tried when it is too short), then each field's packets.
  if (sample.size() <= CounterFinder::kMinPairs || sample.back().ns - sample.front().ns < kMinSpanNs)
    return best;
  double bestSpread = std::numeric_limits<double>::infinity();
  const InferredField taken[] = {seq};
  forEachField(CounterFinder::kBytes, false, [&](InferredField f) {
    if (overlapsAny(f, taken)) return;
    const Unwrapped u = unwrap(sample, f);
    // A clock does not run backwards (a late packet may step back once).
    if (u.pairs < CounterFinder::kMinPairs || u.ns.back() - u.ns.front() < kMinSpanNs ||
        double(u.backwards) > 0.05 * double(u.pairs) || u.value.back() <= 0)
      return;
    for (double unit : kUnitsHz) {
      const auto [fit, spread] = clockFit(u, unit);
      if (fit < CounterFinder::kMinFit || spread >= bestSpread - 1e-9) continue;
      best = f;
      best.fit = fit;
      best.unit_hz = unit;
      bestSpread = spread;
    }
  });
  return best;
}

namespace {

// The other direction's highest number captured before each packet of the
// echoing sample (-1 before its first), unwrapped from its first number.
struct Highest {
  std::vector<int64_t> before;  // per packet of the echoing sample
  uint32_t first_raw = 0;
};

Highest highestBefore(std::span<const SampledPacket> echoing, std::span<const SampledPacket> other,
                      const InferredField& counter) {
  Highest h;
  h.before.assign(echoing.size(), -1);
  int64_t n = 0, high = -1;
  uint32_t prev = 0;
  size_t j = 0;
  for (size_t i = 0; i < echoing.size(); ++i) {
    for (; j < other.size() && other[j].frame < echoing[i].frame; ++j) {
      if (!covers(other[j], counter)) continue;
      const uint32_t raw = valueIn(other[j], counter);
      if (high < 0) {
        h.first_raw = raw;
        high = 0;
      } else {
        n += signedStep(prev, raw, counter.size);
        high = std::max(high, n);
      }
      prev = raw;
    }
    h.before[i] = high;
  }
  return h;
}

// The numbers of `counter` the other direction's packets carried, cut to `mask`.
std::unordered_set<uint32_t> sentNumbers(std::span<const SampledPacket> other, const InferredField& counter,
                                         uint32_t mask) {
  std::unordered_set<uint32_t> sent;
  for (const SampledPacket& p : other)
    if (covers(p, counter)) sent.insert(valueIn(p, counter) & mask);
  return sent;
}

}  // namespace

InferredField findEcho(std::span<const SampledPacket> echoing, std::span<const InferredField> mine,
                       std::span<const SampledPacket> other, const InferredField& counter) {
  InferredField best;
  if (!counter.found()) return best;
  const Highest h = highestBefore(echoing, other, counter);
  std::unordered_set<uint32_t> sentBySize[5];  // the other side's numbers cut to 1, 2 or 4 bytes
  for (uint8_t size : {1, 2, 4})
    if (size <= counter.size)
      sentBySize[size] = sentNumbers(other, counter, uint32_t((uint64_t{1} << (8 * size)) - 1));
  forEachField(CounterFinder::kBytes, true, [&](InferredField f) {
    if (f.size > counter.size || overlapsAny(f, mine)) return;
    const uint64_t mask = (uint64_t{1} << (8 * f.size)) - 1;
    const int64_t maxLag = std::min<int64_t>(kMaxEchoLag, int64_t(mask >> 2));
    const std::unordered_set<uint32_t>& sent = sentBySize[f.size];
    uint64_t judged = 0, within = 0, ahead = 0, changes = 0, named = 0;
    bool any = false;
    uint32_t prev = 0;
    for (size_t i = 0; i < echoing.size(); ++i) {
      if (h.before[i] < 0 || !covers(echoing[i], f)) continue;
      const uint32_t v = valueIn(echoing[i], f);
      const auto highRaw = static_cast<uint32_t>((h.first_raw + uint64_t(h.before[i])) & mask);
      const int64_t lag = signedStep(v, highRaw, f.size);
      ++judged;
      within += lag >= -1 && lag <= maxLag;
      ahead += lag == -1;
      if (any && v != prev) {
        ++changes;
        named += sent.contains(v) || sent.contains((v - 1) & uint32_t(mask));
      }
      any = true;
      prev = v;
    }
    if (judged < CounterFinder::kMinPairs || changes < kMinEchoChanges ||
        double(named) < CounterFinder::kMinFit * double(changes))
      return;
    f.fit = double(within) / double(judged);
    // The widest field that fits: a byte of a wider echo also fits, and
    // better by chance (a u8 wraps every 256 numbers).
    if (f.fit < CounterFinder::kMinFit || (best.found() && (f.size < best.size || f.fit <= best.fit + 1e-12)))
      return;
    f.echo_next = ahead >= 2 && double(ahead) >= 0.01 * double(judged);
    best = f;
  });
  return best;
}

void EchoRtt::onData(const uint8_t* payload, size_t len, int64_t ns, uint64_t frame) {
  uint32_t raw = 0;
  if (!readField(counter_, payload, len, raw)) return;
  int64_t n = 0;
  if (any_) {
    const int64_t step = signedStep(high_raw_, raw, counter_.size);
    if (std::llabs(step) > CounterTracker::kMaxJump) {  // a restart: what came before is gone
      std::fill(slots_.begin(), slots_.end(), Slot{});
      high_ += int64_t{kWindow};
      n = high_;
      high_raw_ = raw;
    } else {
      n = high_ + step;
    }
  }
  if (!any_ || n > high_) high_ = n, high_raw_ = raw;
  any_ = true;
  if (high_ - n >= int64_t{kWindow}) return;
  Slot& s = slot(n);
  if (s.n == n) {
    ++s.copies;
    return;
  }
  s = Slot{n, ns, frame, 1};
}

bool EchoRtt::onEcho(const uint8_t* payload, size_t len, int64_t ns, double& ms, uint64_t& data_frame) {
  uint32_t raw = 0;
  if (!any_ || !readField(echo_, payload, len, raw)) return false;
  if (any_echo_ && raw == last_echo_) return false;
  any_echo_ = true;
  last_echo_ = raw;
  const uint32_t target = raw - (echo_.echo_next ? 1u : 0u);
  const uint64_t mask = (uint64_t{1} << (8 * echo_.size)) - 1;
  const int64_t step =
      signedStep(static_cast<uint32_t>(high_raw_ & mask), static_cast<uint32_t>(target & mask), echo_.size);
  const int64_t n = high_ + step;
  if (step > 0 || high_ - n >= int64_t{kWindow}) return false;
  const Slot& s = slot(n);
  if (s.n != n || s.copies != 1 || ns < s.ns) return false;
  ms = double(ns - s.ns) / 1e6;
  data_frame = s.frame;
  return true;
}

}  // namespace rudp::ana
