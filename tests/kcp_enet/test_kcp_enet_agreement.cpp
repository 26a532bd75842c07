// rudpscope-cli decode prints exactly what tshark prints, with every shipped
// dissector loaded, on the committed KCP and ENet lab captures: every field
// of every dissector, through the heuristics and through the port
// preferences (kcp.ports / enet.ports).
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
std::vector<std::string> dissectorFiles() {
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(fs::path(RUDPSCOPE_SOURCE_DIR) / "dissectors"))
    if (e.path().extension() == ".lua") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<std::string> allFields() {
  LuaHost host;
  DissectorOptions opts;
  opts.load_defaults = false;
  opts.extra_scripts = dissectorFiles();
  loadDissectors(host, opts);
  std::vector<std::string> fields = FieldPrinter::builtinFields();
  for (const auto& f : host.fields()) fields.push_back(f.abbrev);
  return fields;
}

std::vector<std::string> captures() {
  std::vector<std::string> caps;
  for (const auto& e : fs::recursive_directory_iterator(fs::path(RUDPSCOPE_SOURCE_DIR) / "tests" / "kcp_enet" / "data"))
    if (e.path().extension() == ".pcap" || e.path().extension() == ".pcapng") caps.push_back(e.path().string());
  std::sort(caps.begin(), caps.end());
  return caps;
}

// Returns the number of frames where a kcp or enet field is present.
size_t compareWithTshark(const std::string& capture, const std::vector<std::string>& fields,
                         const std::vector<std::string>& prefs) {
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
  return tl.size();
}
}  // namespace

TEST_CASE("decode agrees with tshark on the KCP and ENet lab captures") {
  const auto fields = allFields();
  // Both new dissectors are among the shipped ones.
  REQUIRE(std::find(fields.begin(), fields.end(), "kcp.conv") != fields.end());
  REQUIRE(std::find(fields.begin(), fields.end(), "enet.data.seq") != fields.end());
  const auto caps = captures();
  REQUIRE(caps.size() >= 4);
  for (const auto& c : caps) {
    SECTION(fs::path(c).parent_path().filename().string() + "/" + fs::path(c).filename().string()) {
      SECTION("heuristics") { CHECK(compareWithTshark(c, fields, {}) > 300); }
      SECTION("port preferences") {
        CHECK(compareWithTshark(c, fields, {"kcp.ports:29900-29901,40124", "enet.ports:17091,40123"}) > 300);
      }
    }
  }
}
