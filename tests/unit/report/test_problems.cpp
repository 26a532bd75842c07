// findProblems against the simulator's ground truth: the sample's outage is
// the worst problem with the right connection, direction, times and text;
// every true stall is listed; a clean capture has none; timeout runs and
// capture warnings are found as they really happened.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>

#include "report/problems.h"
#include "report/wording.h"
#include "report_fixture.h"
#include "store/store_reader.h"

using namespace rudp;
using namespace rudp::test;
using nlohmann::json;

namespace {

constexpr double kTick = 1.0 / 30;  // the truth's precision for stall edges (one client tick)

const json& directionTruth(const AnalysedCapture& a, size_t conn, Direction d) {
  return a.truth["connections"][conn]["directions"]
                [d == Direction::ClientToServer ? "client_to_server" : "server_to_client"];
}

std::vector<Problem> ofKind(const std::vector<Problem>& all, ProblemKind k, int64_t conn, Direction d) {
  std::vector<Problem> out;
  for (const auto& p : all)
    if (p.kind == k && p.conn == conn && p.dir == d) out.push_back(p);
  return out;
}

double seconds(const AnalysedCapture& a, int64_t ns) { return report::secondsSince(ns, a.info.first_ts_ns); }

// A run of timeout copies of one seq in the truth (attempts consecutive).
struct TrueRun {
  uint32_t seq = 0, count = 0, first_attempt = 0, last_attempt = 0;
  int64_t start_ns = 0, end_ns = 0;  // the copy before the run .. the run's last copy
  std::string words() const {
    return report::format("%u timeout retransmission%s in a row (seq %u, attempt%s %u\u2013%u)", count,
                          count == 1 ? "" : "s", seq, count == 1 ? "" : "s", first_attempt, last_attempt);
  }
};

std::vector<TrueRun> trueTimeoutRuns(const json& packets) {
  std::vector<TrueRun> runs;
  std::map<uint32_t, TrueRun> open;
  std::map<uint32_t, int64_t> lastSend;
  auto close = [&](TrueRun& r) {
    if (r.count > 0) runs.push_back(r);
    r.count = 0;
  };
  for (const auto& p : packets) {
    const uint32_t seq = p["seq"], attempt = p["attempt"];
    const int64_t send = p["send_ns"];
    TrueRun& r = open[seq];
    if (attempt > 1 && p["retx_cause"] == "timeout") {
      if (r.count > 0 && attempt == r.last_attempt + 1) {
        ++r.count, r.last_attempt = attempt, r.end_ns = send;
      } else {
        close(r);
        r = TrueRun{seq, 1, attempt, attempt, lastSend[seq], send};
      }
    } else if (attempt > 1) {
      close(r);
    }
    if (p["type"] != "ACK") lastSend[seq] = send;
  }
  for (auto& [seq, r] : open) close(r);
  std::sort(runs.begin(), runs.end(),
            [](const TrueRun& a, const TrueRun& b) { return a.start_ns < b.start_ns; });
  return runs;
}

}  // namespace

TEST_CASE("the sample's worst problem is the 1.5 s outage stall of client 10.0.1.2:40001") {
  // The sample's own command, with the per-packet truth.
  AnalysedCapture a = simulateAndAnalyse("outage", sampleSimArgs());
  StoreReader reader(a.db);
  const std::vector<Problem> problems = findProblems(reader);
  REQUIRE(problems.size() >= 2);
  const int64_t conn = a.connectionId(1);
  const json& truth = directionTruth(a, 1, Direction::ClientToServer)["summary"]["stalls"][0];
  REQUIRE(truth["duration_ms"].get<double>() > 1500);

  const Problem& worst = problems[0];
  CHECK(worst.kind == ProblemKind::Stall);
  CHECK(worst.conn == conn);
  CHECK(worst.dir == Direction::ClientToServer);
  CHECK(seconds(a, worst.start_ns) == Approx(a.secondsSinceCaptureStart(truth["start_ns"])).margin(kTick));
  CHECK(seconds(a, worst.end_ns) == Approx(a.secondsSinceCaptureStart(truth["end_ns"])).margin(kTick));
  // The packet shown is the data packet that started the wait: the
  // connection's client->server packet captured when the stall starts.
  const std::optional<PacketRecord> shown = reader.packet(worst.frame);
  REQUIRE(shown);
  CHECK(shown->conn == conn);
  CHECK(shown->dir == Direction::ClientToServer);
  CHECK(shown->ts_ns == worst.start_ns);
  // The text says it as the truth does: connection, length, start, direction.
  const std::string expected = "conn " + std::to_string(conn) +
                               " (client 10.0.1.2:40001): " + report::durationText(truth["duration_ms"]) +
                               " stall at " +
                               report::format("%.3f s", a.secondsSinceCaptureStart(truth["start_ns"])) +
                               ": client\u2192server data waited for an ack (";
  CHECK(worst.text.rfind(expected, 0) == 0);
  // The copies resent during the stall and its longest timeout run, from the truth.
  const json& packets = directionTruth(a, 1, Direction::ClientToServer)["packets"];
  const int64_t from = truth["start_ns"], to = truth["end_ns"];
  unsigned resent = 0;
  for (const auto& p : packets)
    if (p["attempt"].get<int>() > 1 && p["send_ns"].get<int64_t>() >= from &&
        p["send_ns"].get<int64_t>() <= to)
      ++resent;
  TrueRun longest;
  for (const TrueRun& r : trueTimeoutRuns(packets))
    if (r.end_ns >= from && r.start_ns <= to && r.count > longest.count) longest = r;
  REQUIRE(longest.count >= 2);
  CHECK(worst.text == expected + "data lost, resent on retransmission timeouts); " + std::to_string(resent) +
                          " copies resent, " + longest.words());

  // Second: the same outage seen on the server's data.
  const json& back = directionTruth(a, 1, Direction::ServerToClient)["summary"]["stalls"][0];
  const Problem& second = problems[1];
  CHECK(second.kind == ProblemKind::Stall);
  CHECK(second.conn == conn);
  CHECK(second.dir == Direction::ServerToClient);
  CHECK(seconds(a, second.start_ns) == Approx(a.secondsSinceCaptureStart(back["start_ns"])).margin(kTick));
  CHECK(seconds(a, second.end_ns) == Approx(a.secondsSinceCaptureStart(back["end_ns"])).margin(kTick));
  CHECK(second.text.find("server\u2192client data waited") != std::string::npos);
}

TEST_CASE("every true stall of the sample is a problem, worst first") {
  AnalysedCapture a = analysedSample();
  StoreReader reader(a.db);
  const std::vector<Problem> problems = findProblems(reader);
  size_t stalls = 0, trueStalls = 0;
  for (size_t c = 0; c < a.truth["connections"].size(); ++c) {
    for (Direction d : {Direction::ClientToServer, Direction::ServerToClient}) {
      const json& truth = directionTruth(a, c, d)["summary"]["stalls"];
      const std::vector<Problem> found = ofKind(problems, ProblemKind::Stall, a.connectionId(c), d);
      INFO("connection " << c << " direction " << int(d));
      REQUIRE(found.size() == truth.size());
      trueStalls += truth.size();
      for (const auto& t : truth) {
        const double start = a.secondsSinceCaptureStart(t["start_ns"]);
        const auto match = std::find_if(found.begin(), found.end(), [&](const Problem& p) {
          return std::abs(seconds(a, p.start_ns) - start) < kTick;
        });
        REQUIRE(match != found.end());
        CHECK(seconds(a, match->end_ns) == Approx(a.secondsSinceCaptureStart(t["end_ns"])).margin(kTick));
        CHECK(match->severity == Approx(t["duration_ms"].get<double>()).margin(1000 * kTick));
        ++stalls;
      }
    }
  }
  CHECK(stalls == trueStalls);
  CHECK(trueStalls == 9);
  for (size_t i = 1; i < problems.size(); ++i) CHECK(problems[i - 1].severity >= problems[i].severity);
  // A 1.5 s stall is above every 230-330 ms one.
  for (size_t i = 2; i < problems.size(); ++i) CHECK(problems[i].severity < 400);
}

TEST_CASE("a clean capture has no problems, at every vantage") {
  for (const char* vantage : {"client", "server", "middle"}) {
    AnalysedCapture a = simulateAndAnalyse(std::string("clean-") + vantage,
                                           {"--connections", "3", "--duration", "10", "--seed", "3", "--loss",
                                            "0", "--jitter-ms", "5", "--vantage", vantage});
    for (const auto& c : a.truth["connections"])
      for (const auto& [name, d] : c["directions"].items()) REQUIRE(d["summary"]["lost"] == 0);
    StoreReader reader(a.db);
    const std::vector<Problem> problems = findProblems(reader);
    INFO(vantage << ": " << (problems.empty() ? "" : problems.front().text));
    CHECK(problems.empty());
  }
}

TEST_CASE("runs of timeout retransmissions outside stalls are problems of their own") {
  // With a 5 s stall threshold the outage is no stall: its backoff runs are
  // listed by themselves, exactly as the client sent them.
  IngestOptions options;
  options.analysis.stall_ms = 5000;
  AnalysedCapture a = simulateAndAnalyse("runs", sampleSimArgs(), options);
  StoreReader reader(a.db);
  const std::vector<Problem> problems = findProblems(reader);
  for (size_t c = 0; c < a.truth["connections"].size(); ++c) {
    const int64_t conn = a.connectionId(c);
    std::vector<TrueRun> truth;
    for (const TrueRun& r : trueTimeoutRuns(directionTruth(a, c, Direction::ClientToServer)["packets"]))
      if (r.count >= 2) truth.push_back(r);
    const std::vector<Problem> found =
        ofKind(problems, ProblemKind::RetransmissionRun, conn, Direction::ClientToServer);
    INFO("connection " << c);
    REQUIRE(found.size() == truth.size());
    for (size_t i = 0; i < truth.size(); ++i) {
      const auto match = std::find_if(found.begin(), found.end(), [&](const Problem& p) {
        return p.text.find(truth[i].words()) != std::string::npos;
      });
      REQUIRE(match != found.end());
      CHECK(seconds(a, match->start_ns) ==
            Approx(a.secondsSinceCaptureStart(truth[i].start_ns)).margin(1e-3));
      CHECK(seconds(a, match->end_ns) == Approx(a.secondsSinceCaptureStart(truth[i].end_ns)).margin(1e-3));
      CHECK(match->severity == Approx((truth[i].end_ns - truth[i].start_ns) / 1e6).margin(1));
    }
  }
  CHECK(
      ofKind(problems, ProblemKind::RetransmissionRun, a.connectionId(1), Direction::ClientToServer).size() >=
      1);
}

TEST_CASE("a capture cut off mid-packet is a capture warning at its last frame") {
  AnalysedCapture whole = simulateAndAnalyse("cut", {"--connections", "2", "--duration", "3", "--seed", "4"});
  AnalysedCapture cut("cut2");
  cut.pcap = cut.dir / "cut.pcap";
  std::filesystem::copy_file(whole.pcap, cut.pcap);
  std::filesystem::resize_file(cut.pcap, std::filesystem::file_size(whole.pcap) - 30);
  cut.db = cut.dir / "cut.sqlite";
  cut.info = ingestCapture(cut.pcap, cut.db, {}).capture;
  REQUIRE(cut.info.packet_count == whole.info.packet_count - 1);

  StoreReader reader(cut.db);
  const std::vector<Problem> problems = findProblems(reader);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].kind == ProblemKind::CaptureWarning);
  CHECK(problems[0].conn == 0);
  CHECK(problems[0].frame == cut.info.packet_count);
  CHECK(problems[0].start_ns == cut.info.last_ts_ns);
  CHECK(problems[0].text.rfind(
            "capture: the file is cut off after frame " + std::to_string(cut.info.packet_count), 0) == 0);
}

TEST_CASE("dissector errors are a capture warning naming the first frame and its error") {
  AnalysedCapture a("luaerr");
  const std::string script = a.dir / "raising.lua";
  std::ofstream(script) << "local p = Proto(\"raising\", \"Raises\")\n"
                           "function p.dissector(tvb, pinfo, tree)\n"
                           "  error(\"<script>alert('x')</script> & \\\"co\\\"\")\n"
                           "end\n"
                           "DissectorTable.get(\"udp.port\"):add(7777, p)\n";
  AnalysedCapture sim =
      simulateAndAnalyse("luaerr-sim", {"--connections", "1", "--duration", "1", "--seed", "2"});
  a.pcap = sim.pcap;
  a.db = a.dir / "e.sqlite";
  DissectorOptions only;
  only.load_defaults = false;
  only.extra_scripts = {script};
  a.info = ingestCapture(a.pcap, a.db, only).capture;
  REQUIRE(a.info.lua_errors == a.info.packet_count);

  StoreReader reader(a.db);
  const std::vector<Problem> problems = findProblems(reader);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].kind == ProblemKind::CaptureWarning);
  CHECK(problems[0].frame == 1);
  CHECK(problems[0].text.rfind("capture: " + std::to_string(a.info.packet_count) +
                                   " frames raised dissector errors (first: frame 1 at 0.000 s: ",
                               0) == 0);
  CHECK(problems[0].text.find("<script>alert('x')</script> & \"co\"") != std::string::npos);
}

TEST_CASE("RTT over the highest limit is a problem placed at the first sample over it") {
  // One-way delay 150 ms +- 15 (normal): most round trips exceed 300 ms.
  AnalysedCapture a =
      simulateAndAnalyse("rtt", {"--connections", "2", "--duration", "10", "--seed", "4", "--delay-ms", "150",
                                 "--jitter-ms", "15", "--jitter-dist", "normal"});
  StoreReader reader(a.db);
  const std::vector<Problem> problems = findProblems(reader);
  for (size_t c = 0; c < 2; ++c) {
    const int64_t conn = a.connectionId(c);
    const auto found = ofKind(problems, ProblemKind::RttOverLimit, conn, Direction::ClientToServer);
    REQUIRE(found.size() == 1);
    // The true round trips of client->server data, carried by captured server packets.
    std::map<uint64_t, double> trueRtt;
    for (const auto& p : directionTruth(a, c, Direction::ServerToClient)["packets"])
      if (p.contains("ack") && p["ack"]["true_rtt_ms"].is_number() && p["frame"].is_number())
        trueRtt[p["frame"]] = p["ack"]["true_rtt_ms"];
    // Of the packets the analysis took a sample from, those truly over the
    // limit (up to the 1 ms resolution of the echoed timestamps).
    const auto samples = reader.rttSamples(conn, Direction::ClientToServer);
    size_t surelyOver = 0, maybeOver = 0;
    for (const auto& e : samples) {
      REQUIRE(trueRtt.count(e.frame) == 1);
      surelyOver += trueRtt[e.frame] > 301;
      maybeOver += trueRtt[e.frame] > 299;
    }
    const auto record = reader.connection(conn);
    const double share = record->metrics.dir[0].rtt.share_above[2];
    INFO("connection " << c << ": share " << share);
    REQUIRE(samples.size() == record->metrics.dir[0].rtt.samples);
    CHECK(share * double(samples.size()) >= double(surelyOver) - 0.5);
    CHECK(share * double(samples.size()) <= double(maybeOver) + 0.5);
    CHECK(found[0].severity == Approx(share * 10000));
    CHECK(found[0].text.find(report::percentText(share) +
                             " of client\u2192server RTT samples above 300 ms") != std::string::npos);
    // Its place: a sample whose true RTT is over the limit (within the 1 ms of ts resolution).
    REQUIRE(trueRtt.count(found[0].frame) == 1);
    CHECK(trueRtt[found[0].frame] > 299);
    CHECK(found[0].severity > problems.back().severity);
  }
  // A round-trip budget is not applied to ack delays (server->client data at the client).
  for (const auto& p : problems)
    CHECK_FALSE((p.kind == ProblemKind::RttOverLimit && p.dir == Direction::ServerToClient));
}
