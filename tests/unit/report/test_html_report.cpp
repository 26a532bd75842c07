// The HTML report of real captures: a well-formed page (parsed as XML by
// report_facts.py) with every connection, the problems, and timelines whose
// stall bands sit at the stall times on the SVG's own time axis and whose
// marks are every retransmission; strings from the capture are escaped.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "report/html_report.h"
#include "report/timeline_svg.h"
#include "report/wording.h"
#include "report_fixture.h"
#include "store/store_reader.h"

using namespace rudp;
using namespace rudp::test;
using nlohmann::json;

namespace {

std::string writeReport(const AnalysedCapture& a, const report::HtmlReportOptions& options = {}) {
  StoreReader reader(a.db);
  const std::string path = a.dir / "report.html";
  report::writeHtmlReportFile(reader, path, options);
  return path;
}

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

const char* dirKey(Direction d) { return d == Direction::ClientToServer ? "c2s" : "s2c"; }

size_t marks(const json& timeline, Direction d, const std::string& cls) {
  const std::string key = std::string(dirKey(d)) + " " + cls;
  return timeline["marks"].contains(key) ? timeline["marks"][key].get<size_t>() : 0;
}

// Renders a report's SVGs to PNG for a person to look at (when rsvg-convert is there).
void renderTimelines(const std::string& html, const std::string& name) {
  const char* rsvg = "/usr/bin/rsvg-convert";
  if (!std::filesystem::exists(rsvg)) return;
  std::filesystem::create_directories(RUDPSCOPE_TEST_ARTIFACTS);
  const std::string page = slurp(html);
  const size_t from = page.find("<svg"), to = page.find("</svg>", from);
  if (from == std::string::npos || to == std::string::npos) return;
  const std::string svg = std::string(RUDPSCOPE_TEST_ARTIFACTS) + "/" + name + ".svg";
  std::ofstream(svg) << page.substr(from, to + 6 - from);
  CHECK(run({rsvg, "-b", "white", svg, "-o", std::string(RUDPSCOPE_TEST_ARTIFACTS) + "/" + name + ".png"})
            .status == 0);
}

}  // namespace

TEST_CASE("the sample's report lists every connection and draws the stalls where they happened") {
  AnalysedCapture a = simulateAndAnalyse("html", sampleSimArgs());
  const std::string html = writeReport(a);
  const json facts = reportFacts(html);
  renderTimelines(html, "report_sample_worst_timeline");
  StoreReader reader(a.db);
  const std::vector<Problem> problems = findProblems(reader);

  CHECK(facts["title"] == "rudpscope report: capture.pcap");
  CHECK(facts["connections"] == json::array({1, 2, 3}));
  REQUIRE(facts["problems"].size() == problems.size());
  for (size_t i = 0; i < problems.size(); ++i) {
    CHECK(facts["problems"][i]["text"].get<std::string>().find(problems[i].text) != std::string::npos);
    CHECK(facts["problems"][i]["severity"].get<double>() == Approx(problems[i].severity).margin(0.05));
  }
  CHECK(facts["problems"][0]["class"] == "severe");

  // Timelines of the three connections, worst first: the outage's first.
  const std::vector<int64_t> worst = report::worstConnections(reader, problems, 3);
  REQUIRE(facts["timelines"].size() == 3);
  CHECK(worst.front() == a.connectionId(1));
  for (size_t t = 0; t < 3; ++t) {
    const json& tl = facts["timelines"][t];
    const int64_t conn = tl["conn"];
    CHECK(conn == worst[t]);
    const auto record = reader.connection(conn);
    REQUIRE(record);
    CHECK(tl["ticks"].get<int>() >= 5);
    const double px = tl["seconds_per_px"];
    for (Direction d : {Direction::ClientToServer, Direction::ServerToClient}) {
      // Stall bands at the stall times, read back through the SVG's own axis.
      const auto& stalls = record->metrics.dir[size_t(d)].stalls;
      std::vector<json> bands;
      for (const auto& b : tl["stalls"])
        if (b["dir"] == dirKey(d)) bands.push_back(b);
      INFO("conn " << conn << " " << dirKey(d));
      REQUIRE(bands.size() == stalls.size());
      for (size_t i = 0; i < stalls.size(); ++i) {
        CHECK(bands[i]["start_s"].get<double>() ==
              Approx(report::secondsSince(stalls[i].start_ns, a.info.first_ts_ns)).margin(px));
        CHECK(bands[i]["end_s"].get<double>() ==
              Approx(report::secondsSince(stalls[i].end_ns, a.info.first_ts_ns)).margin(px));
      }
      // Every retransmission and loss has its mark, by kind.
      const auto& m = record->metrics.dir[size_t(d)];
      CHECK(marks(tl, d, "retx timeout") == m.retransmissions_timeout);
      CHECK(marks(tl, d, "retx fast") == m.retransmissions_fast);
      CHECK(marks(tl, d, "retx spurious") == m.retransmissions_spurious);
      CHECK(marks(tl, d, "loss") == reader.losses(conn, d).size());
    }
    // At the client every client->server copy is captured: the marks are the truth's.
    size_t truthConn = 0;
    while (a.connectionId(truthConn) != conn) ++truthConn;
    const json& retx =
        a.truth["connections"][truthConn]["directions"]["client_to_server"]["summary"]["retransmissions"];
    CHECK(marks(tl, Direction::ClientToServer, "retx timeout") == retx["timeout"].get<size_t>());
    CHECK(marks(tl, Direction::ClientToServer, "retx fast") == retx["fast"].get<size_t>());
  }

  // The outage's band on its true times (the truth's precision: one tick).
  const json& outage = a.truth["connections"][1]["directions"]["client_to_server"]["summary"]["stalls"][0];
  const json& band = facts["timelines"][0]["stalls"][0];
  CHECK(band["start_s"].get<double>() ==
        Approx(a.secondsSinceCaptureStart(outage["start_ns"])).margin(1.0 / 30));
  CHECK(band["end_s"].get<double>() == Approx(a.secondsSinceCaptureStart(outage["end_ns"])).margin(1.0 / 30));
}

TEST_CASE("a long connection's timeline stays small: points per pixel column, every mark kept") {
  AnalysedCapture a = simulateAndAnalyse("long", {"--connections", "1", "--duration", "240", "--seed", "9",
                                                  "--loss", "0.03", "--burst", "2", "--tick-hz", "60,60"});
  StoreReader reader(a.db);
  const auto record = reader.connection(1);
  REQUIRE(record);
  const std::string svg = report::connectionTimelineSvg(reader, *record, a.info.first_ts_ns, {150, 250, 300});
  const std::string html = a.dir / "long.html";
  std::ofstream(html) << "<html><head><title>t</title></head><body>" << svg << "</body></html>";
  const json facts = reportFacts(html);
  renderTimelines(html, "report_long_timeline");
  REQUIRE(facts["timelines"].size() == 1);
  const json& tl = facts["timelines"][0];
  for (Direction d : {Direction::ClientToServer, Direction::ServerToClient}) {
    const uint64_t samples = record->metrics.dir[size_t(d)].rtt.samples;
    INFO(dirKey(d) << ": " << samples << " samples");
    REQUIRE(samples > 10000);
    // At most the lowest and highest sample of each of the ~890 columns.
    CHECK(tl["samples_drawn"][dirKey(d)].get<size_t>() <= 2 * 900);
    CHECK(marks(tl, d, "retx timeout") + marks(tl, d, "retx fast") + marks(tl, d, "retx spurious") ==
          record->metrics.dir[size_t(d)].retransmissions);
  }
  const size_t retx = record->metrics.dir[0].retransmissions + record->metrics.dir[1].retransmissions;
  const size_t losses =
      reader.losses(1, Direction::ClientToServer).size() + reader.losses(1, Direction::ServerToClient).size();
  // Lines and dots are bounded by the width; marks cost a few hundred bytes each.
  CHECK(svg.size() < 200'000 + 400 * (retx + losses));
}

TEST_CASE("strings from the capture are escaped in the page") {
  AnalysedCapture a("escape");
  AnalysedCapture sim =
      simulateAndAnalyse("escape-sim", {"--connections", "1", "--duration", "1", "--seed", "2"});
  a.pcap = a.dir / "a<b>&\"c'.pcap";
  std::filesystem::copy_file(sim.pcap, a.pcap);
  const std::string script = a.dir / "raising.lua";
  std::ofstream(script) << "local p = Proto(\"raising\", \"Raises\")\n"
                           "function p.dissector(tvb, pinfo, tree)\n"
                           "  error(\"<script>alert('x')</script> & more\")\n"
                           "end\n"
                           "DissectorTable.get(\"udp.port\"):add(7777, p)\n";
  DissectorOptions only;
  only.load_defaults = false;
  only.extra_scripts = {script};
  a.db = a.dir / "e.sqlite";
  a.info = ingestCapture(a.pcap, a.db, only).capture;
  const std::string html = writeReport(a);
  const json facts = reportFacts(html);  // well-formed: nothing broke out of its element
  CHECK(facts["title"] == "rudpscope report: a<b>&\"c'.pcap");
  REQUIRE(facts["problems"].size() == 1);
  CHECK(facts["problems"][0]["text"].get<std::string>().find("<script>alert('x')</script> & more") !=
        std::string::npos);
  const std::string page = slurp(html);
  CHECK(page.find("<script") == std::string::npos);
  CHECK(page.find("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; more") != std::string::npos);
  CHECK(page.find("a&lt;b&gt;&amp;&quot;c&#39;.pcap") != std::string::npos);
}

TEST_CASE("a clean capture's report says there are no problems and still draws its connections") {
  AnalysedCapture a =
      simulateAndAnalyse("clean-html", {"--connections", "4", "--duration", "5", "--seed", "3"});
  const std::string html = writeReport(a, {2});
  const json facts = reportFacts(html);
  CHECK(facts["problems"].empty());
  CHECK(slurp(html).find("No problems found.") != std::string::npos);
  CHECK(facts["connections"] == json::array({1, 2, 3, 4}));
  REQUIRE(facts["timelines"].size() == 2);
  for (const auto& tl : facts["timelines"]) CHECK(tl["stalls"].empty());
}

TEST_CASE("a report that cannot be written is one error and leaves no file") {
  AnalysedCapture a = simulateAndAnalyse("nowrite", {"--connections", "1", "--duration", "1", "--seed", "2"});
  StoreReader reader(a.db);
  const std::string path = a.dir / "missing-folder/report.html";
  CHECK_THROWS_WITH(report::writeHtmlReportFile(reader, path),
                    Catch::Contains("cannot write '" + path + "'"));
  CHECK_FALSE(std::filesystem::exists(a.dir / "missing-folder"));
}
