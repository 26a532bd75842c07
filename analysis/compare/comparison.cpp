#include "compare/comparison.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "analyzers/percentiles.h"
#include "analyzers/rtt.h"
#include "analyzers/vantage.h"
#include "report/wording.h"
#include "store/store_reader.h"

namespace rudp::cmp {
namespace {

constexpr double kNsPerMs = 1e6;

Distribution distributionOf(const ana::RttStats& s) {
  Distribution d;
  d.count = s.samples;
  d.mean = s.mean;
  d.p50 = s.p50;
  d.p95 = s.p95;
  d.p99 = s.p99;
  d.max = s.max;
  return d;
}

Distribution distributionOf(const std::vector<double>& samples) {
  ana::Percentiles p(static_cast<uint32_t>(std::max<size_t>(samples.size(), 1)));
  for (double v : samples) p.add(v);
  ana::RttStats stats;
  ana::fillSampleFigures(stats, p, {});
  return distributionOf(stats);
}

double ratio(uint64_t part, uint64_t whole) {
  return whole ? static_cast<double>(part) / static_cast<double>(whole) : kNone;
}

// The copies of one seq sent since its captured original (retransmission
// events name their original; a seq sent again later has a new original).
struct Chain {
  int64_t original_ts = 0;
  int64_t last_ts = 0;
  bool repaired_loss = false;  // at least one copy was not spurious
};

struct Recoveries {
  std::vector<double> recovery_ms;
  uint64_t unmeasured = 0;
};

Recoveries recoveries(const std::vector<ana::RetransmissionEvent>& retx) {
  Recoveries out;
  std::map<std::pair<uint32_t, uint64_t>, Chain> chains;  // (seq, original frame)
  std::map<uint32_t, bool> unmeasuredSeqs;
  for (const auto& r : retx) {
    if (r.original_frame == 0) {
      unmeasuredSeqs[r.seq] = true;
      continue;
    }
    auto [it, fresh] = chains.try_emplace({r.seq, r.original_frame});
    Chain& c = it->second;
    if (fresh) {
      // The first retransmission of a captured original follows that original.
      if (r.previous_frame != r.original_frame || r.since_previous_ms < 0) {
        chains.erase(it);
        unmeasuredSeqs[r.seq] = true;
        continue;
      }
      c.original_ts = r.ts_ns - std::llround(r.since_previous_ms * kNsPerMs);
    }
    c.last_ts = r.ts_ns;
    c.repaired_loss = c.repaired_loss || r.cause != ana::RetxCause::Spurious;
  }
  for (const auto& [key, c] : chains)
    if (c.repaired_loss) out.recovery_ms.push_back(static_cast<double>(c.last_ts - c.original_ts) / kNsPerMs);
  out.unmeasured = unmeasuredSeqs.size();
  return out;
}

void fillRetransmissions(DirectionComparison& c, const ana::DirectionMetrics& m) {
  c.data_packets = m.data_packets;
  c.retransmissions = m.retransmissions;
  c.retx_timeout = m.retransmissions_timeout;
  c.retx_fast = m.retransmissions_fast;
  c.retx_spurious = m.retransmissions_spurious;
  c.retx_inferred = m.retransmissions_inferred;
  c.fast_share = ratio(c.retx_fast, c.retx_fast + c.retx_timeout);
  c.spurious_share = ratio(c.retx_spurious, c.retransmissions);
}

void fillLossAndStalls(DirectionComparison& c, const ConnectionRecord& r, Direction dir) {
  const ana::DirectionMetrics& m = r.metrics.dir[static_cast<size_t>(dir)];
  c.lost = m.lost;
  if (c.data_packets) c.loss_percent = 100.0 * report::lossFraction(m, r.metrics.vantage, dir);
  c.loss_bursts = m.loss_bursts;
  c.mean_loss_burst = m.mean_loss_burst;
  c.stalls = m.stalls.size();
  for (const auto& s : m.stalls) c.longest_stall_ms = std::max(c.longest_stall_ms, s.duration_ms);
  if (c.duration_s > 0) c.stalls_per_minute = static_cast<double>(c.stalls) * 60.0 / c.duration_s;
  c.hol_observable = m.hol_observable;
  c.hol_blocking_ms = m.hol_blocking_ms;
  c.hol_max_ms = m.hol_max_ms;
}

void fillRates(DirectionComparison& c, const ana::DirectionMetrics& m, const DataBytes& data) {
  c.packets = m.packets;
  c.bytes = m.bytes;
  c.payload_bytes = data.all;
  c.retransmitted_payload_bytes = data.retransmitted;
  if (c.duration_s <= 0) return;
  c.throughput_kbps = static_cast<double>(c.bytes) * 8.0 / c.duration_s / 1000.0;
  const uint64_t unique = data.all > data.retransmitted ? data.all - data.retransmitted : 0;
  c.goodput_kbps = static_cast<double>(unique) * 8.0 / c.duration_s / 1000.0;
}

std::vector<std::pair<double, double>> shares(const ana::RttStats& s, const std::vector<double>& limits) {
  std::vector<std::pair<double, double>> out;
  for (size_t i = 0; i < limits.size() && i < s.share_above.size(); ++i)
    out.emplace_back(limits[i], s.samples ? s.share_above[i] : kNone);
  return out;
}

DirectionComparison compareDirection(StoreReader& db, const ConnectionRecord& r, Direction dir,
                                     const std::vector<double>& limits) {
  const ConnectionSummary& s = r.summary;
  const ana::DirectionMetrics& m = r.metrics.dir[static_cast<size_t>(dir)];
  DirectionComparison c;
  c.conn = s.id;
  c.protocol = s.protocol;
  c.client = s.client;
  c.server = s.server;
  c.dir = dir;
  c.duration_s = static_cast<double>(s.last_ts_ns - s.first_ts_ns) / 1e9;
  c.at_receiver = ana::atReceiver(r.metrics.vantage, dir);
  c.rtt = distributionOf(m.rtt);
  c.response = distributionOf(m.response);
  c.response_share = shares(m.response, limits);
  const Recoveries rec = recoveries(db.retransmissions(s.id, dir));
  c.loss_recovery = distributionOf(rec.recovery_ms);
  c.recovery_samples_ms = rec.recovery_ms;
  std::sort(c.recovery_samples_ms.begin(), c.recovery_samples_ms.end());
  c.unmeasured_recoveries = rec.unmeasured;
  fillRetransmissions(c, m);
  fillLossAndStalls(c, r, dir);
  fillRates(c, m, db.dataBytes(s.id, dir));
  // QUIC's packet rows do not carry their STREAM and DATAGRAM bytes: its
  // payload and goodput are unknown here, never a 0 that was not measured.
  if (s.protocol == "quic") {
    c.payload_known = false;
    c.goodput_kbps = kNone;
  }
  return c;
}

}  // namespace

std::string receiverSideNote(Direction dir) {
  const bool c2s = dir == Direction::ClientToServer;
  return std::string("captured at the receiver of its data (the ") + (c2s ? "server" : "client") +
         "), where a round trip is only the receiver's ack delay and a lost original never arrives: RTT,"
         " response time and loss recovery are not shown; capture at the " +
         (c2s ? "client" : "server") + " to compare them";
}

std::vector<std::string> receiverSideWarnings(const std::vector<DirectionComparison>& rows, Direction dir) {
  std::set<std::string> all, atReceiver;
  std::string names;
  for (const auto& r : rows) {
    if (r.dir != dir) continue;
    all.insert(r.capture);
    if (r.at_receiver && atReceiver.insert(r.capture).second)
      names += (names.empty() ? "" : ", ") + r.capture;
  }
  if (atReceiver.empty()) return {};
  return {std::string(dir == Direction::ClientToServer ? "c2s" : "s2c") + " of " +
          std::to_string(atReceiver.size()) + " of " + std::to_string(all.size()) + " captures (" + names +
          ") was " + receiverSideNote(dir)};
}

double shareAbove(const DirectionComparison& d, double limit_ms) {
  for (const auto& [limit, share] : d.response_share)
    if (limit == limit_ms) return share;
  return kNone;
}

std::vector<DirectionComparison> compareConnections(StoreReader& db, const std::string& capture,
                                                    const Labels& labels) {
  const std::vector<double> limits = db.settings().rtt_limits_ms;
  std::vector<ConnectionRecord> records = db.connectionRecords();
  std::vector<DirectionComparison> out;
  for (const auto& r : records) {
    // A flow no dissector claims has no loss or RTT to compare (timing only).
    if (!r.has_analysis || r.metrics.timing_only) continue;
    for (Direction dir : {Direction::ClientToServer, Direction::ServerToClient}) {
      if (!r.has_direction[static_cast<size_t>(dir)]) continue;
      out.push_back(compareDirection(db, r, dir, limits));
      out.back().capture = capture;
      out.back().labels = labels;
    }
  }
  return out;
}

}  // namespace rudp::cmp
