#include "report_fixture.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "store/store_reader.h"

namespace rudp::test {

namespace fs = std::filesystem;

double AnalysedCapture::secondsSinceCaptureStart(int64_t truthNs) const {
  const double epoch = truth["time_base"]["pcap_epoch_s"].get<double>();
  return epoch + static_cast<double>(truthNs) / 1e9 - static_cast<double>(info.first_ts_ns) / 1e9;
}

int64_t AnalysedCapture::connectionId(size_t index) const {
  const std::string client = truth["connections"][index]["client"];
  StoreReader reader(db);
  for (const auto& c : reader.connections())
    if (c.client == client) return c.id;
  FAIL("no connection of client " << client);
  return 0;
}

namespace {

void analyse(AnalysedCapture& a, const IngestOptions& options, const DissectorOptions& dissectors) {
  a.db = a.dir / "capture.sqlite";
  IngestOptions opts = options;
  opts.dissector_lanes = 1;
  opts.threaded_store = false;
  opts.threaded_flows = false;
  a.info = ingestCapture(a.pcap, a.db, dissectors, opts).capture;
}

}  // namespace

AnalysedCapture simulateAndAnalyse(const std::string& tag, const std::vector<std::string>& simArgs,
                                   const IngestOptions& options, const DissectorOptions& dissectors) {
  AnalysedCapture a(tag);
  a.pcap = a.dir / "capture.pcap";
  const std::string truth = a.dir / "capture.truth.json";
  std::vector<std::string> argv = {GRUDP_SIM, "--out", a.pcap, "--truth", truth};
  argv.insert(argv.end(), simArgs.begin(), simArgs.end());
  const ProcessResult r = run(argv);
  INFO(r.err);
  REQUIRE(r.status == 0);
  std::ifstream f(truth);
  a.truth = nlohmann::json::parse(f);
  analyse(a, options, dissectors);
  return a;
}

AnalysedCapture analysedSample(const IngestOptions& options) {
  AnalysedCapture a("sample");
  a.pcap = a.dir / "sample.pcap";
  fs::copy_file(std::string(RUDPSCOPE_SOURCE_DIR) + "/resources/sample.pcap", a.pcap);
  std::ifstream f(std::string(RUDPSCOPE_SOURCE_DIR) + "/resources/sample.truth.json");
  a.truth = nlohmann::json::parse(f);
  analyse(a, options, {});
  return a;
}

std::vector<std::string> sampleSimArgs() {
  return {"--connections", "3",       "--duration", "20",         "--seed",    "1",           "--loss",
          "0.02",          "--burst", "3",          "--delay-ms", "40",        "--jitter-ms", "5",
          "--reorder",     "0.01",    "--outage",   "8:9.5@1",    "--vantage", "client"};
}

nlohmann::json reportFacts(const std::string& htmlPath) {
  const ProcessResult r = run({PYTHON3, REPORT_FACTS_PY, htmlPath});
  INFO("report_facts.py: " << r.err);
  REQUIRE(r.status == 0);
  return nlohmann::json::parse(r.out);
}

}  // namespace rudp::test
