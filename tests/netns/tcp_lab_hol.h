// Head-of-line blocking at a TCP receiver, worked out without rudpscope:
// from the receiver's own capture (what reached its stack, and when) and
// from its application's reads (tcp_workload --read-log: when each byte
// reached the application). Part of tcp_lab_checks.h.
//
// A segment that arrives while bytes below it are missing waits in the
// kernel's out-of-order queue until they arrive; only then can the
// application read it. So, per first copy of data above a hole:
//  - from the capture: the wait is the arrival of the last missing byte
//    below it minus its own arrival (rudpscope's definition, hol.h);
//  - from the application: the read that returned its last byte minus its
//    own arrival. The kernel moves the queue to the socket when the hole
//    fills, so that must be the read that returned the filling segment (the
//    check): then the application's wait is the capture's plus its wake-up
//    after the fill, the latency it has for every segment, blocked or not
//    (reported beside the largest wake-up for a segment that filled nothing).
// Every copy that arrives above a hole (a repeated copy of data already
// queued too) is one the kernel counts in TCPOFOQueue and tcpi_rcv_ooopack.
#pragma once
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "tcp_lab_pcap.h"

namespace tcplab {

struct AppRead {
  int64_t ns;         // CLOCK_REALTIME when the read returned
  int64_t bytesRead;  // total bytes read so far
};

inline std::vector<AppRead> readAppReads(const std::string& path) {
  std::vector<AppRead> reads;
  std::ifstream in(path);
  for (AppRead r; in >> r.ns >> r.bytesRead;) reads.push_back(r);
  return reads;
}

struct HolTruth {
  int64_t copiesAboveHole = 0;  // the kernel's out-of-order queue insertions
  // First copies above a hole (data or FIN), their waits from the capture.
  int64_t blocked = 0;
  double captureMs = 0, captureMaxMs = 0;
  // Those that carry data (the application reads bytes, not a FIN): both views.
  int64_t dataBlocked = 0;
  double dataCaptureMs = 0, appMs = 0, appMaxMs = 0;
  double fillWakeUpMs = 0;     // the application's wake-ups after the fills, summed per blocked data segment
  double inOrderAppMaxMs = 0;  // the application's largest latency for a segment that filled no hole
  int64_t readBeforeArrival = 0, neverRead = 0;
  int64_t readApartFromFiller = 0;  // blocked data not read with the segment that filled the hole
  bool sawSyn = false;
};

namespace hol_detail {
struct Waiting {
  int64_t start, dataEnd, arrivalNs;
  bool data;
};
// When the application had read up to byte `end` (-1: never).
inline int64_t readAt(const std::vector<AppRead>& reads, int64_t end) {
  auto it = std::lower_bound(reads.begin(), reads.end(), end,
                             [](const AppRead& r, int64_t e) { return r.bytesRead < e; });
  return it == reads.end() ? -1 : it->ns;
}
inline double ms(int64_t ns) { return double(ns) / 1e6; }
}  // namespace hol_detail

// `segs`: the receiver's capture; the direction is the segments from `from`.
inline HolTruth holTruth(const std::vector<Seg>& segs, uint32_t from, const std::vector<AppRead>& reads) {
  using namespace hol_detail;
  HolTruth t;
  uint32_t isn = 0;
  int64_t received = 0;  // bytes [0, received) of the stream arrived in order
  SeqUnion arrived;
  std::vector<Waiting> waiting;
  auto appWait = [&](const Waiting& w) {
    const int64_t at = readAt(reads, w.dataEnd);
    if (at < 0) ++t.neverRead;
    if (at >= 0 && at < w.arrivalNs) ++t.readBeforeArrival;
    return at < 0 ? 0.0 : ms(at - w.arrivalNs);
  };
  for (const Seg& s : segs) {
    if (s.sip != from || s.rst()) continue;
    if (s.syn()) {
      isn = s.seq;
      t.sawSyn = true;
      continue;
    }
    if (!t.sawSyn || s.seqSpace() == 0) continue;
    const int64_t start = int32_t(s.seq - isn - 1), end = start + s.seqSpace(), dataEnd = start + s.len;
    if (end <= received) continue;  // a copy of what the application can read already
    if (start > received) {
      ++t.copiesAboveHole;
      if (arrived.covers(start, end)) continue;
      arrived.add(start, end);
      ++t.blocked;
      waiting.push_back({start, dataEnd, s.ns, s.len > 0});
      continue;
    }
    const double ownWait = s.len > 0 ? appWait({start, dataEnd, s.ns, true}) : 0;
    const size_t waitingBefore = waiting.size();
    arrived.add(start, end);
    received = arrived.iv.begin()->second;  // the in-order range, with what had queued above it
    std::erase_if(waiting, [&](const Waiting& w) {
      if (w.start > received) return false;
      const double captured = ms(s.ns - w.arrivalNs);
      t.captureMs += captured;
      t.captureMaxMs = std::max(t.captureMaxMs, captured);
      if (w.data) {
        const double app = appWait(w);
        if (s.len > 0 && readAt(reads, w.dataEnd) != readAt(reads, dataEnd)) ++t.readApartFromFiller;
        t.fillWakeUpMs += ownWait;
        ++t.dataBlocked;
        t.dataCaptureMs += captured;
        t.appMs += app;
        t.appMaxMs = std::max(t.appMaxMs, app);
      }
      return true;
    });
    if (waiting.size() == waitingBefore) t.inOrderAppMaxMs = std::max(t.inOrderAppMaxMs, ownWait);
  }
  t.neverRead += int64_t(waiting.size());
  return t;
}

// The receiver's HOL blocking: rudpscope's figures at the receiver
// (`analysis`, its analyze --json direction) equal the capture's waits; the
// kernel's out-of-order count (TCPOFOQueue of the receiver's namespace and
// the socket's tcpi_rcv_ooopack, when recorded) equals the copies above a
// hole; the application read every blocked byte with the filling segment.
// Only where the receiver's capture sees exactly what its stack received
// (losses before it, not at its input hook).
inline nlohmann::json checkHolAtReceiver(const HolTruth& t, const nlohmann::json& analysis,
                                         const nlohmann::json& kernel, bool haveReads, std::ostream& report) {
  constexpr double kCaptureTickMs = 0.001;  // pcap's microseconds
  REQUIRE(t.sawSyn);
  CHECK(analysis.value("hol_observable", 0) == 1);
  CHECK(analysis.value("hol_blocked_packets", int64_t(-1)) == t.blocked);
  CHECK(std::abs(analysis.value("hol_blocking_ms", -1.0) - t.captureMs) <=
        kCaptureTickMs * double(t.blocked));
  CHECK(std::abs(analysis.value("hol_max_ms", -1.0) - t.captureMaxMs) <= kCaptureTickMs);
  CHECK(kernel.at("TcpExtTCPOFOQueue") == t.copiesAboveHole);
  if (kernel.contains("tcpi_rcv_ooopack")) CHECK(kernel["tcpi_rcv_ooopack"] == t.copiesAboveHole);
  nlohmann::json j = {{"blocked", t.blocked},
                      {"copies_above_hole", t.copiesAboveHole},
                      {"capture_ms", t.captureMs},
                      {"capture_max_ms", t.captureMaxMs},
                      {"kernel", kernel},
                      {"rudpscope",
                       {{"hol_blocked_packets", analysis.value("hol_blocked_packets", int64_t(-1))},
                        {"hol_blocking_ms", analysis.value("hol_blocking_ms", -1.0)},
                        {"hol_max_ms", analysis.value("hol_max_ms", -1.0)}}}};
  report << "    HOL at the receiver: " << t.blocked << " segments waited " << t.captureMs << " ms (longest "
         << t.captureMaxMs << "), " << t.copiesAboveHole << " copies above a hole (kernel " << kernel.dump()
         << ")";
  if (haveReads) {
    CHECK(t.neverRead == 0);
    CHECK(t.readBeforeArrival == 0);
    CHECK(t.readApartFromFiller == 0);
    j["application"] = {{"blocked_data_segments", t.dataBlocked},
                        {"capture_ms", t.dataCaptureMs},
                        {"application_ms", t.appMs},
                        {"application_max_ms", t.appMaxMs},
                        {"wake_up_after_fills_ms", t.fillWakeUpMs},
                        {"wake_up_max_ms", t.inOrderAppMaxMs},
                        {"read_apart_from_filler", t.readApartFromFiller},
                        {"read_before_arrival", t.readBeforeArrival},
                        {"never_read", t.neverRead}};
    report << "; the application waited " << t.appMs << " ms for the " << t.dataBlocked
           << " with data (capture " << t.dataCaptureMs << " + its wake-ups after the fills "
           << t.fillWakeUpMs << ", longest " << t.appMaxMs
           << "; its wake-up for a segment that filled nothing at most " << t.inOrderAppMaxMs << " ms)";
  }
  report << "\n";
  return j;
}

}  // namespace tcplab
