// rudpscope-cli report end to end: the page is the library's page (what the
// GUI's File > Export report writes), a matching database is reused and any
// other is analysed afresh, and errors are one line with status 2.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli_checks.h"
#include "process.h"
#include "report/html_report.h"
#include "store/store_reader.h"

using namespace rudp;
using namespace rudp::test;
namespace fs = std::filesystem;

namespace {

const std::string kCli = RUDPSCOPE_CLI;

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

std::string simulate(const TempDir& dir, const std::string& name, const std::vector<std::string>& extra) {
  std::vector<std::string> argv = {GRUDP_SIM, "--out", dir / name};
  argv.insert(argv.end(), extra.begin(), extra.end());
  REQUIRE(run(argv).status == 0);
  return dir / name;
}

// The sample's command (resources/README.md): an outage on the second client.
std::string sample(const TempDir& dir) {
  return simulate(dir, "sample.pcap",
                  {"--connections", "3", "--duration", "20", "--seed", "1", "--loss", "0.02", "--burst", "3",
                   "--delay-ms", "40", "--jitter-ms", "5", "--reorder", "0.01", "--outage", "8:9.5@1"});
}

}  // namespace

TEST_CASE("report writes the library's page and names the worst problem") {
  TempDir dir("clireport");
  const std::string cap = sample(dir), db = dir / "s.sqlite", html = dir / "s.html";
  const ProcessResult r = run({kCli, "report", cap, "--db", db, "-w", html});
  INFO(r.err);
  REQUIRE(r.status == 0);

  StoreReader reader(db);
  const std::vector<Problem> problems = findProblems(reader);
  REQUIRE(!problems.empty());
  CHECK(problems.front().text.rfind("conn 3 (client 10.0.1.2:40001): 1.56 s stall at 8.028 s", 0) == 0);
  CHECK(r.out ==
        html + ": " + std::to_string(problems.size()) + " problems; worst: " + problems.front().text + "\n");

  // Byte for byte what the library writes with the same generator name.
  const std::string version = splitLines(run({kCli, "--version"}).out).at(0);
  report::HtmlReportOptions options;
  options.generator = version;
  std::ostringstream page;
  report::writeHtmlReport(reader, page, options);
  CHECK(slurp(html) == page.str());
  CHECK(occurrences(page.str(), "<svg ") == 3);
  CHECK_FALSE(fs::exists(html + ".partial"));
}

TEST_CASE("report reuses a database of the same capture and settings, and only that") {
  TempDir dir("clireuse");
  const std::string cap = sample(dir), db = dir / "s.sqlite", html = dir / "s.html";
  REQUIRE(run({kCli, "analyze", cap, "--db", db, "-q"}).status == 0);
  const auto made = fs::last_write_time(db);

  ProcessResult r = run({kCli, "report", cap, "--db", db, "-w", html});
  REQUIRE(r.status == 0);
  CHECK(r.err == "rudpscope-cli: using the analysis in " + db + "\n");
  CHECK(fs::last_write_time(db) == made);

  // Another stall threshold: analysed again, with it.
  r = run({kCli, "report", cap, "--db", db, "-w", html, "-q", "--stall-ms", "150"});
  REQUIRE(r.status == 0);
  CHECK(r.err.empty());
  CHECK(r.out.empty());
  CHECK(fs::last_write_time(db) != made);
  CHECK(StoreReader(db).settings().stall_ms == 150);
  auto redone = fs::last_write_time(db);

  // The moba preset is the same 150 ms with the default limits: reused.
  r = run({kCli, "report", cap, "--db", db, "-w", html, "--genre", "moba"});
  REQUIRE(r.status == 0);
  CHECK(r.err == "rudpscope-cli: using the analysis in " + db + "\n");
  CHECK(fs::last_write_time(db) == redone);

  // The mmo preset judges responses by 150/300/500 ms: analysed again with them.
  r = run({kCli, "report", cap, "--db", db, "-w", html, "-q", "--genre", "mmo"});
  REQUIRE(r.status == 0);
  CHECK(fs::last_write_time(db) != redone);
  CHECK(StoreReader(db).settings().stall_ms == 300);
  CHECK(StoreReader(db).settings().rtt_limits_ms == std::vector<double>{150, 300, 500});
  redone = fs::last_write_time(db);

  // The same settings spelled out: reused.
  r = run({kCli, "report", cap, "--db", db, "-w", html, "--stall-ms", "300", "--rtt-limits", "150,300,500"});
  REQUIRE(r.status == 0);
  CHECK(r.err == "rudpscope-cli: using the analysis in " + db + "\n");
  CHECK(fs::last_write_time(db) == redone);

  // A preference is not recorded in the database: analysed again.
  r = run({kCli, "report", cap, "--db", db, "-w", html, "-q", "--genre", "mmo", "-o", "grudp.port:7777"});
  REQUIRE(r.status == 0);
  CHECK(fs::last_write_time(db) != redone);

  // Another capture at the same database: analysed again, and the page is about it.
  const std::string other =
      simulate(dir, "other.pcap", {"--connections", "2", "--duration", "3", "--seed", "5"});
  r = run({kCli, "report", other, "--db", db, "-w", html, "-q"});
  REQUIRE(r.status == 0);
  CHECK(StoreReader(db).capture().path == other);
  CHECK(occurrences(slurp(html), "<tbody id=\"conn-") == 2);
}

TEST_CASE("report --top sets how many timelines the page draws") {
  TempDir dir("clitop");
  const std::string cap = sample(dir), html = dir / "s.html";
  REQUIRE(run({kCli, "report", cap, "--db", dir / "s.sqlite", "-w", html, "-q", "--top", "1"}).status == 0);
  const std::string page = slurp(html);
  CHECK(occurrences(page, "<svg ") == 1);
  CHECK(occurrences(page, "<figure id=\"timeline-3\"") == 1);
  CHECK(occurrences(page, "<tbody id=\"conn-") == 3);
}

TEST_CASE("report errors are one line with status 2") {
  TempDir dir("clireporterr");
  requireOneLineError(run({kCli, "report", "/nonexistent/game.pcap", "-w", dir / "x.html"}),
                      "/nonexistent/game.pcap");
  const std::string cap = simulate(dir, "s.pcap", {"--connections", "1", "--duration", "1"});
  const std::string html = dir / "no-such-folder/x.html";
  requireOneLineError(run({kCli, "report", cap, "--db", dir / "s.sqlite", "-w", html, "-q"}),
                      "cannot write '" + html + "'");
  CHECK_FALSE(fs::exists(dir / "no-such-folder"));
  // Without -w the command says what is missing (and -o stays the preference option).
  const ProcessResult r = run({kCli, "report", cap, "-o", "report.html"});
  CHECK(r.status != 0);
  CHECK(r.err.find("--output") != std::string::npos);
}
