// The rows ingest hands to the SQLite writer, a batch at a time.
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "session/batch_worker.h"
#include "store/analysis_writer.h"
#include "store/store_writer.h"

namespace rudp {

struct RowBatch {
  std::vector<PacketRow> rows;
  std::vector<uint32_t> seg_begin;  // rows[i]'s segments: segs[seg_begin[i] .. seg_begin[i+1])
  std::vector<Segment> segs;
  std::vector<std::pair<uint64_t, std::string>> errors;  // frame, message
  std::vector<IcmpErrorRecord> icmp_errors;
  // Connection-analysis events, by connection id.
  std::vector<std::pair<int64_t, ana::RttEvent>> rtts;
  std::vector<std::pair<int64_t, ana::RetransmissionEvent>> retx;
  std::vector<std::pair<int64_t, ana::LossEvent>> losses;
  std::vector<std::pair<int64_t, ana::StallEvent>> stalls;
  std::vector<std::pair<int64_t, ana::RateEvent>> rates;
  std::vector<std::pair<int64_t, ana::ConnectionMetrics>> metrics;  // finished connections
  std::vector<std::unique_ptr<Connection>> closed;                  // connections the flow table closed

  void clear() {
    rows.clear();
    seg_begin.clear();
    segs.clear();
    errors.clear();
    icmp_errors.clear();
    rtts.clear();
    retx.clear();
    losses.clear();
    stalls.clear();
    rates.clear();
    metrics.clear();
    closed.clear();
  }
  void add(const PacketRow& r, const std::vector<Segment>& s) {
    seg_begin.push_back(static_cast<uint32_t>(segs.size()));
    rows.push_back(r);
    segs.insert(segs.end(), s.begin(), s.end());
  }
};

// Writes a batch's rows and analysis events through the single SQLite writer.
void writeRowBatch(StoreWriter& writer, AnalysisWriter& analysis, const RowBatch& b);

// Feeds the single SQLite writer from its own thread ("rudp-store"), so
// inserting rows overlaps with reading, dissecting and analysing.
class StoreThread : public BatchWorker<RowBatch> {
 public:
  // `threaded` false: write() writes inline (no thread).
  StoreThread(StoreWriter& writer, AnalysisWriter& analysis, bool threaded)
      : BatchWorker<RowBatch>(
            "rudp-store", [&writer, &analysis](RowBatch& b) { writeRowBatch(writer, analysis, b); },
            threaded) {}
};

}  // namespace rudp
