// Ground truth: the GRUDP simulator's own record of every packet, against
// what the analyzer reads from the capture alone, across a matrix of loss,
// burst length, delay, jitter, reordering and capture point, with seqs
// starting just below 2^32.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>

#include "analyzers/vantage.h"
#include "sim_feed.h"

using namespace anatest;
using namespace grudp_sim;

namespace {

struct Tally {
  uint64_t retx = 0, retx_knowable = 0, rtt = 0, stalls = 0, lost = 0, lost_found = 0, mismatches = 0;
  double worst_rtt_err_ms = 0;
};

bool atSenderOf(rudp::ana::Vantage v, int d) {
  return rudp::ana::atSender(v, rudp::Direction(d));
}

// Never-delivered seqs of a direction, in seq order (wrap-safe: send order of originals).
std::vector<uint32_t> neverDelivered(const DirTruth& t) {
  std::map<uint32_t, bool> delivered;  // offset from the first seq -> delivered
  std::vector<uint32_t> order;
  uint32_t first = 0;
  bool any = false;
  for (const PacketRecord& p : t.packets) {
    if (p.h.type == kAck) continue;
    if (!any) { first = p.h.seq; any = true; }
    const uint32_t off = p.h.seq - first;
    auto [it, fresh] = delivered.emplace(off, false);
    if (fresh) order.push_back(off);
    it->second = it->second || !p.lost;
  }
  std::vector<uint32_t> out;
  for (auto [off, ok] : delivered)
    if (!ok) out.push_back(first + off);
  return out;
}

void checkRun(const SimRun& run, Tally& tally) {
  const SimConfig& cfg = run.cfg;
  const auto want = cfg.vantage == grudp_sim::Vantage::Client ? rudp::ana::Vantage::Client
                                                              : rudp::ana::Vantage::Server;
  for (size_t c = 0; c < run.metrics.size(); ++c) {
    const auto& m = run.metrics[c];
    const Recorder& rec = *run.rec[c];
    INFO("connection " << c);
    // Without an answer from the server there is no round trip to read.
    if (run.truth(int(c), kS2C).stats.sent > 0) CHECK(m.vantage == want);
    if (std::getenv("ANA_DEBUG") && m.vantage != want)
      std::printf("VANTAGE %s: c2s %lu samples min %.3f, s2c %lu samples min %.3f; c2s sent %lu, s2c sent %lu gave_up %d/%d\n",
                  rudp::ana::toString(m.vantage), (unsigned long)m.dir[0].rtt.samples, m.dir[0].rtt.min,
                  (unsigned long)m.dir[1].rtt.samples, m.dir[1].rtt.min, (unsigned long)run.truth(int(c), 0).stats.sent,
                  (unsigned long)run.truth(int(c), 1).stats.sent, run.truth(int(c), 0).stats.gave_up, run.truth(int(c), 1).stats.gave_up);
    for (int d = 0; d < 2; ++d) {
      INFO("direction " << (d == 0 ? "c2s" : "s2c") << (atSenderOf(want, d) ? " (sender side)" : " (receiver side)"));
      const DirTruth& t = run.truth(int(c), d);
      const auto& dm = m.dir[size_t(d)];
      const bool sender = atSenderOf(want, d);

      // Retransmissions: every captured copy after the first. A copy whose
      // earlier copies were all lost before the capture point is knowable when
      // a higher seq's captured copy was sent before it (the ts order betrays
      // it); otherwise it looks exactly like an original (documented limit).
      uint64_t retx = 0, knowable = 0, dups = 0;
      std::map<uint32_t, int> captured_copies;  // seq -> copies captured so far
      for (const PacketRecord& p : t.packets) {
        if (p.frame && p.duplicate) ++dups;
        if (!p.frame || p.h.type == kAck) continue;
        const int before = captured_copies[p.h.seq]++;
        if (p.attempt == 1) continue;
        ++retx;
        bool know = before > 0;
        for (const PacketRecord& q : t.packets) {
          if (know) break;
          know = q.frame && q.h.type != kAck && q.attempt == 1 && int32_t(q.h.seq - p.h.seq) > 0 &&
                 int32_t(q.h.ts - p.h.ts) < 0;
        }
        knowable += know;
      }
      if (sender) CHECK(knowable == retx);
      CHECK(dm.retransmissions >= knowable);
      CHECK(dm.retransmissions <= retx);
      tally.retx_knowable += knowable;
      if (std::getenv("ANA_DEBUG") && dm.retransmissions < knowable) {
        std::set<uint64_t> ours;
        for (const RetransmissionEvent& e : rec.retx)
          if (int(e.dir) == d) ours.insert(e.frame);
        for (const PacketRecord& p : t.packets)
          if (p.frame && p.attempt > 1 && !ours.count(p.frame))
          {
            std::printf("MISSED retx seq=%u attempt=%d type=%d frame=%lu ts=%u\n", p.h.seq, p.attempt, p.h.type,
                        (unsigned long)p.frame, p.h.ts);
            for (const PacketRecord& q : t.packets)
              if (q.h.type != kAck && uint32_t(q.h.seq - p.h.seq + 4) <= 14)
                std::printf("   seq=%u attempt=%d flags=%d frame=%lu ts=%u lost=%d dup=%d\n", q.h.seq, q.attempt, q.h.flags,
                            (unsigned long)q.frame, q.h.ts, q.lost, q.duplicate);
          }
      }
      tally.retx += retx;
      if (sender && std::getenv("ANA_DEBUG")) {
        for (const RetransmissionEvent& e : rec.retx) {
          if (int(e.dir) != d) continue;
          const PacketRecord& p = run.record(e.frame);
          const bool fast = p.cause == kFast;
          if (fast != (e.cause == rudp::ana::RetxCause::Fast))
            std::printf("MISS truth=%s ours=%s since=%.3f attempt=%u frame=%lu\n", fast ? "fast" : "timeout",
                        toString(e.cause), e.since_previous_ms, e.attempt, (unsigned long)e.frame);
        }
      }
      if (sender) {
        CHECK(retx == t.stats.retx_timeout + t.stats.retx_fast);
        CHECK(dm.retransmissions_timeout == t.stats.retx_timeout);
        CHECK(dm.retransmissions_fast == t.stats.retx_fast);
        CHECK(dm.retransmissions_spurious == 0);
      } else {
        CHECK(dm.duplicates == dups);
      }

      // RTT: the right copy matched, and at the sender the true round trip.
      for (const RttEvent& e : rec.rtt) {
        if (int(e.dir) != d) continue;
        const PacketRecord& ack = run.record(e.frame);
        REQUIRE(ack.acked_copy != 0xFFFFFFFFu);
        const PacketRecord& copy = run.truth(int(c), d).packets[ack.acked_copy];
        CHECK(e.data_frame == copy.frame);
        if (sender) {
          const double err = std::abs(e.rtt_ms - double(ack.true_rtt_ns) / 1e6);
          tally.worst_rtt_err_ms = std::max(tally.worst_rtt_err_ms, err);
          CHECK(err <= 1.0);
        }
        ++tally.rtt;
      }

      // Loss: seqs no copy of which was delivered. The receiver's end cannot
      // know of seqs sent after the last one that reached it.
      std::vector<uint32_t> lost = neverDelivered(t);
      {
        // What the vantage can know: at the receiver, seqs below the highest
        // captured one; at the sender, seqs the captured acks have reached.
        bool any = false;
        uint32_t top = 0;
        for (const PacketRecord& p : sender ? run.truth(int(c), 1 - d).packets : t.packets) {
          if (!p.frame) continue;
          if (sender && !(p.h.flags & kAckFlag)) continue;
          if (!sender && p.h.type == kAck) continue;
          const uint32_t v = sender ? p.h.ack : p.h.seq;
          if (!any || int32_t(v - top) > 0) top = v, any = true;
        }
        std::erase_if(lost, [&](uint32_t s) { return !any || int32_t(s - top) > 0; });
      }
      CHECK(dm.lost == lost.size());
      tally.lost += lost.size();
      tally.lost_found += dm.lost;
      if (dm.lost != lost.size()) {
        ++tally.mismatches;
        if (std::getenv("ANA_DEBUG"))
          std::printf("LOSS %s side: truth %zu ours %lu unknown %lu\n", sender ? "sender" : "receiver", lost.size(),
                      (unsigned long)dm.lost, (unsigned long)dm.loss_unknown);
        if (std::getenv("ANA_DEBUG")) {
          std::set<uint32_t> ours;
          for (const LossEvent& e : rec.loss)
            if (int(e.dir) == d)
              for (uint32_t k = 0; k < e.count; ++k) ours.insert(e.first_seq + k);
          for (uint32_t s : lost)
            if (!ours.count(s)) {
              std::printf("  not reported: %u;", s);
              for (const PacketRecord& p : t.packets)
                if (p.h.seq == s && p.h.type != kAck)
                  std::printf(" [type %d flags %d attempt %d lost %d send %.1f]", p.h.type, p.h.flags, p.attempt, p.lost, p.send_ns / 1e6);
              std::printf("\n");
            }
        }
      }

      // Stalls on the sender's timeline: exact where the capture is at the sender.
      if (sender) {
        const int64_t tick = int64_t(1e9 / (d == kC2S ? cfg.client_hz : cfg.server_hz));
        size_t closed = 0;
        for (const Stall& s : t.stats.stalls) {
          if (s.open) continue;
          ++closed;
          bool found = false;
          for (const StallEvent& o : dm.stalls)
            found |= !o.open && std::llabs(o.start_ns - s.start_ns) <= tick && std::llabs(o.end_ns - s.end_ns) <= tick;
          INFO("true stall " << s.start_ns / 1e6 << " .. " << s.end_ns / 1e6 << " ms");
          CHECK(found);
        }
        size_t ours_closed = 0;
        for (const StallEvent& o : dm.stalls) ours_closed += !o.open;
        CHECK(ours_closed == closed);
        tally.stalls += closed;
      }
    }
  }
}

SimConfig baseConfig(grudp_sim::Vantage v, double loss, double burst, double delay_ms, uint64_t seed) {
  SimConfig cfg;
  cfg.connections = 2;
  cfg.duration_s = 6;
  cfg.seed = seed;
  cfg.vantage = v;
  cfg.seq_start = 0xFFFFFF80u;  // wraps after 128 packets
  for (LinkConfig* l : {&cfg.c2s, &cfg.s2c}) {
    l->delay_ms = delay_ms;
    l->jitter_ms = 2.0;
    l->loss = loss;
    l->burst = burst;
  }
  return cfg;
}

}  // namespace

TEST_CASE("ground truth matrix: loss, burst, delay, vantage") {
  Tally tally;
  AnalyzerConfig acfg;
  uint64_t seed = 1;
  for (auto v : {grudp_sim::Vantage::Client, grudp_sim::Vantage::Server})
    for (double loss : {0.0, 0.01, 0.05, 0.10, 0.20})
      for (double burst : {1.0, 3.0})
        for (double delay : {10.0, 40.0, 150.0, 300.0}) {
          if (loss == 0.0 && burst > 1) continue;
          INFO("vantage " << to_string(v) << " loss " << loss << " burst " << burst << " delay " << delay);
          const SimRun run = runAndAnalyse(baseConfig(v, loss, burst, delay, ++seed), acfg);
          checkRun(run, tally);
        }
  std::printf("truth matrix: %lu retransmissions captured (%lu knowable), %lu RTT samples (worst error %.3f ms), %lu stalls, "
              "%lu never-delivered seqs (%lu judged lost), %lu directions with lost != truth\n",
              (unsigned long)tally.retx, (unsigned long)tally.retx_knowable, (unsigned long)tally.rtt, tally.worst_rtt_err_ms,
              (unsigned long)tally.stalls, (unsigned long)tally.lost, (unsigned long)tally.lost_found, (unsigned long)tally.mismatches);
}
