// `rudpscope-cli decode` must print exactly what tshark prints with the same
// dissector files, for every test capture.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

#include "lua/host.h"
#include "process.h"
#include "session/dissectors.h"
#include "session/field_printer.h"

using namespace rudp;
using namespace rudp::test;
namespace fs = std::filesystem;

namespace {
const std::vector<std::string> kBaseFields = {
    "frame.number", "frame.time_epoch", "ip.src", "ip.dst", "ipv6.src", "ipv6.dst",
    "udp.srcport", "udp.dstport", "tcp.srcport", "tcp.dstport", "tcp.seq"};

std::vector<std::string> dissectorFiles() {
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(fs::path(RUDPSCOPE_SOURCE_DIR) / "dissectors"))
    if (e.path().extension() == ".lua") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

// Every field every shipped dissector registers, plus the frame/ip/udp/tcp ones.
std::vector<std::string> allFields() {
  LuaHost host;
  DissectorOptions opts;
  opts.load_defaults = false;
  opts.extra_scripts = dissectorFiles();
  loadDissectors(host, opts);
  // Every built-in field too, beyond the required base set.
  std::vector<std::string> fields = kBaseFields;
  for (const auto& b : FieldPrinter::builtinFields())
    if (std::find(fields.begin(), fields.end(), b) == fields.end()) fields.push_back(b);
  for (const auto& f : host.fields()) fields.push_back(f.abbrev);
  return fields;
}

void compareWithTshark(const std::string& capture, const std::vector<std::string>& fields,
                       const std::vector<std::string>& prefs = {}) {
  std::vector<std::string> ts = {TSHARK_EXECUTABLE, "-n", "-r", capture, "-T", "fields",
                                 "-o", "tcp.relative_sequence_numbers:FALSE"};
  std::vector<std::string> ours = {RUDPSCOPE_CLI, "decode", capture};
  for (const auto& f : dissectorFiles()) { ts.push_back("-X"); ts.push_back("lua_script:" + f); }
  for (const auto& p : prefs) {
    ts.push_back("-o"); ts.push_back(p);
    ours.push_back("-o"); ours.push_back(p);
  }
  for (const auto& f : fields) {
    ts.push_back("-e"); ts.push_back(f);
    ours.push_back("-e"); ours.push_back(f);
  }
  auto t = run(ts);
  auto o = run(ours);
  INFO("capture " << capture << "\ntshark stderr: " << t.err << "\nrudpscope stderr: " << o.err);
  REQUIRE(t.status == 0);
  REQUIRE(o.status == 0);
  auto tl = splitLines(t.out), ol = splitLines(o.out);
  REQUIRE(ol.size() == tl.size());
  size_t mismatches = 0;
  for (size_t i = 0; i < tl.size(); ++i) {
    if (tl[i] == ol[i]) continue;
    if (++mismatches <= 5) {
      INFO("frame " << i + 1 << "\n tshark:    " << tl[i] << "\n rudpscope: " << ol[i]);
      CHECK(ol[i] == tl[i]);
    }
  }
  CHECK(mismatches == 0);
}
}  // namespace

TEST_CASE("decode agrees with tshark on every committed test capture") {
  auto fields = allFields();
  REQUIRE(fields.size() > FieldPrinter::builtinFields().size() + 15);
  std::vector<std::string> caps;
  for (const auto& e : fs::directory_iterator(fs::path(RUDPSCOPE_SOURCE_DIR) / "tests" / "data" / "link")) {
    auto ext = e.path().extension();
    if (ext == ".pcap" || ext == ".pcapng") caps.push_back(e.path().string());
  }
  caps.push_back((fs::path(RUDPSCOPE_SOURCE_DIR) / "resources" / "sample.pcap").string());
  std::sort(caps.begin(), caps.end());
  REQUIRE(caps.size() >= 12);
  for (const auto& c : caps) {
    if (c.find("trunc") != std::string::npos) continue;  // tshark exits non-zero on a cut file
    SECTION(fs::path(c).filename().string()) { compareWithTshark(c, fields); }
  }
}

TEST_CASE("decode agrees with tshark on simulated traffic from every vantage") {
  auto fields = allFields();
  TempDir dir("agree");
  const std::vector<std::vector<std::string>> variants = {
      {"--vantage", "client", "--loss", "0.05", "--burst", "3"},
      {"--vantage", "server", "--loss", "0.1", "--reorder", "0.05", "--jitter-ms", "15"},
      {"--vantage", "middle", "--seq-start", "4294967200", "--nsec"},
      {"--link", "raw", "--loss", "0.02"},
  };
  int i = 0;
  for (const auto& v : variants) {
    std::string cap = dir / ("sim" + std::to_string(i++) + ".pcap");
    std::vector<std::string> argv = {GRUDP_SIM, "--out", cap, "--connections", "3",
                                     "--duration", "3", "--seed", std::to_string(40 + i)};
    argv.insert(argv.end(), v.begin(), v.end());
    REQUIRE(run(argv).status == 0);
    compareWithTshark(cap, fields);
  }
}
