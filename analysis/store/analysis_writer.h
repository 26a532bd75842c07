// Writes connection-analysis results (events and metrics) through the
// capture's StoreWriter, inside its batched transactions.
#pragma once
#include <memory>

#include "analyzers/events.h"
#include "analyzers/metrics.h"
#include "store/store_writer.h"

namespace rudp {

class AnalysisWriter {
 public:
  explicit AnalysisWriter(StoreWriter& writer);
  ~AnalysisWriter();

  void rtt(int64_t conn, const ana::RttEvent& e);
  void retransmission(int64_t conn, const ana::RetransmissionEvent& e);
  void loss(int64_t conn, const ana::LossEvent& e);
  void stall(int64_t conn, const ana::StallEvent& e);
  void rate(int64_t conn, const ana::RateEvent& e);
  void metrics(int64_t conn, const ana::ConnectionMetrics& m);
  // Writes the rows still held (RTT samples and rates wait to be written in
  // per-connection chunks), then indexes the small event tables; call once,
  // at the end.
  void createIndexes();

 private:
  struct Impl;
  std::unique_ptr<Impl> d;
};

}  // namespace rudp
