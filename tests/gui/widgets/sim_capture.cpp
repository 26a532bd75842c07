#include "sim_capture.h"

#include <QDir>
#include <catch2/catch.hpp>

#include "session/ingest.h"
#include "simulator.hpp"
#include "store/store_reader.h"

namespace rudp::test {

std::unique_ptr<SimCapture> makeSimCapture(grudp_sim::SimConfig config, const std::string& name,
                                           const CaptureEdit& edit) {
  auto c = std::make_unique<SimCapture>();
  REQUIRE(c->dir.isValid());
  c->pcap = c->dir.filePath(QString::fromStdString(name + ".pcap")).toStdString();
  c->db = c->dir.filePath(QString::fromStdString(name + ".sqlite")).toStdString();
  config.nsec = true;  // capture times exactly the truth's
  c->config = config;
  grudp_sim::Simulator sim(config);
  const std::string simulated = edit ? c->pcap + ".sim.pcap" : c->pcap;
  sim.run(simulated, true);
  c->truth = sim.truth();
  if (edit) edit(simulated, c->pcap);
  ingestCapture(c->pcap, c->db, DissectorOptions{});
  return c;
}

int64_t SimCapture::connOf(size_t index) const {
  StoreReader reader(db);
  for (const ConnectionSummary& s : reader.connections())
    if (s.has_conn_id && s.conn_id == truth.at(index).conn_id) return s.id;
  FAIL("no connection with the truth's conn_id " << truth.at(index).conn_id);
  return 0;
}

std::shared_ptr<const gui::TimelineData> SimCapture::timeline(int64_t conn) const {
  StoreReader reader(db);
  return std::make_shared<const gui::TimelineData>(gui::loadTimelineData(reader, conn));
}

grudp_sim::SimConfig mainConfig() {
  grudp_sim::SimConfig c;
  c.connections = 2;
  c.duration_s = 12;
  c.seed = 3;
  c.c2s.loss = c.s2c.loss = 0.03;
  c.c2s.burst = c.s2c.burst = 2;
  c.c2s.delay_ms = c.s2c.delay_ms = 40;
  c.c2s.jitter_ms = c.s2c.jitter_ms = 5;
  c.c2s.reorder = c.s2c.reorder = 0.01;
  c.outages.push_back({4.0, 5.5, 1});
  c.vantage = grudp_sim::Vantage::Client;
  return c;
}

const SimCapture& mainCapture() {
  static const std::unique_ptr<SimCapture> capture = makeSimCapture(mainConfig(), "main");
  return *capture;
}

std::string artifactPath(const std::string& file) {
  QDir().mkpath(QStringLiteral(RUDPSCOPE_TEST_ARTIFACTS));
  return QDir(QStringLiteral(RUDPSCOPE_TEST_ARTIFACTS)).filePath(QString::fromStdString(file)).toStdString();
}

}  // namespace rudp::test
