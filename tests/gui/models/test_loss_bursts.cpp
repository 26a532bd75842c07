// LossBurstModel and loadStatistics against the truth: the analysis' lost
// seqs and loss bursts are the seqs the truth never delivered.
#include "catch_qt.h"

#include <QAbstractItemModelTester>
#include <thread>

#include "models/loss_burst_model.h"
#include "models/statistics_data.h"
#include "sample_capture.h"
#include "store/store_reader.h"

using namespace rudp;
using namespace rudp::gui;
using namespace rudp::test;

namespace {
// What loadStatistics gives on a worker thread with its own reader (how the
// GUI runs it).
StatisticsData loadOnWorker(int64_t conn) {
  StatisticsData data;
  std::thread worker([&] {
    StoreReader reader(sampleCapture().db);
    data = loadStatistics(reader, conn);
  });
  worker.join();
  return data;
}

BurstHistogram modelColumn(const LossBurstModel& m, int column) {
  BurstHistogram h;
  for (int r = 0; r < m.rowCount(); ++r) {
    const auto count = m.index(r, column).data(LossBurstModel::RawRole).toULongLong();
    if (count) h[m.index(r, LossBurstModel::Length).data(LossBurstModel::RawRole).toUInt()] = count;
  }
  return h;
}
}  // namespace

TEST_CASE("loss bursts per direction are the truth's runs of never-delivered seqs") {
  const SampleCapture& s = sampleCapture();
  StoreReader reader(s.db);
  size_t checked = 0;
  for (const ConnectionSummary& c : reader.connections()) {
    const StatisticsData data = loadOnWorker(c.id);
    REQUIRE(data.conn == c.id);
    LossBurstModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setBursts({data.dir[0].loss_bursts, data.dir[1].loss_bursts});
    for (Direction d : {Direction::ClientToServer, Direction::ServerToClient}) {
      INFO(c.client << " " << truthDirection(d));
      const BurstHistogram truth = truthNeverDeliveredRuns(s.truthConnection(c.conn_id), d);
      CHECK(modelColumn(model, 1 + static_cast<int>(d)) == truth);
      CHECK(reader.lossBursts(c.id, d) == truth);
      uint64_t lostSeqs = 0;
      for (const auto& [length, count] : truth) lostSeqs += length * count;
      CHECK(data.of(d).lost == lostSeqs);
      ++checked;
    }
  }
  CHECK(checked == 6);
}

TEST_CASE("statistics data carries every stored RTT sample and the analysis' summary") {
  const SampleCapture& s = sampleCapture();
  StoreReader reader(s.db);
  for (const ConnectionRecord& r : reader.connectionRecords()) {
    const StatisticsData data = loadOnWorker(r.summary.id);
    CHECK(data.client == r.summary.client);
    CHECK(data.capture_start_ns == s.capture.first_ts_ns);
    CHECK(data.settings.rtt_limits_ms == std::vector<double>{150, 250, 300});
    CHECK(data.stalls.size() == r.metrics.dir[0].stalls.size() + r.metrics.dir[1].stalls.size());
    for (int d = 0; d < 2; ++d) {
      const DirectionStatistics& ds = data.dir[d];
      const ana::DirectionMetrics& m = r.metrics.dir[d];
      REQUIRE(ds.analysed);
      REQUIRE(ds.rtt_ms.size() == m.rtt.samples);
      CHECK(*std::min_element(ds.rtt_ms.begin(), ds.rtt_ms.end()) == Approx(m.rtt.min).margin(1e-9));
      CHECK(*std::max_element(ds.rtt_ms.begin(), ds.rtt_ms.end()) == Approx(m.rtt.max).margin(1e-9));
      CHECK(ds.jitter_ms == m.jitter_ms);
      CHECK(ds.gaps.tick_hz == m.gaps.tick_hz);
    }
  }
  CHECK(loadOnWorker(999).conn == 0);
}

TEST_CASE("client-to-server RTT samples are the truth's round trips within 1 ms") {
  // At the client, every sample of client→server data is taken from an ack
  // the server sent back: within 1 ms (ts resolution) of that ack's true RTT.
  const SampleCapture& s = sampleCapture();
  StoreReader reader(s.db);
  size_t checked = 0;
  for (const ConnectionSummary& c : reader.connections()) {
    std::map<uint64_t, double> trueRtt;  // frame of the ack packet -> true RTT
    for (const auto& p : s.truthConnection(c.conn_id)["directions"]["server_to_client"]["packets"])
      if (p["frame"].is_number() && p.contains("ack") && p["ack"]["true_rtt_ms"].is_number())
        trueRtt[p["frame"].get<uint64_t>()] = p["ack"]["true_rtt_ms"].get<double>();
    const std::vector<ana::RttEvent> events = reader.rttSamples(c.id, Direction::ClientToServer);
    const std::vector<double> ours = loadOnWorker(c.id).dir[0].rtt_ms;
    INFO(c.client);
    REQUIRE(ours.size() == events.size());
    for (size_t i = 0; i < ours.size(); ++i) {
      CHECK(ours[i] == events[i].rtt_ms);
      const auto t = trueRtt.find(events[i].frame);
      REQUIRE(t != trueRtt.end());
      CHECK(std::abs(ours[i] - t->second) <= 1.0);
      ++checked;
    }
  }
  CHECK(checked > 1500);  // each connection has about 600 acks of client data in 20 s
}
