#include "tshark_compare.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

#include "flow/stream_fields.h"
#include "lua/dissector_files.h"
#include "lua/host.h"
#include "packets/field_printer.h"
#include "process.h"
#include "wireshark/disabled_protocols.h"
#include "wireshark/file_io.h"

namespace fs = std::filesystem;

namespace rudp::test {

std::vector<std::string> committedCaptures() {
  namespace fs = std::filesystem;
  std::vector<std::string> caps;
  const fs::path root(RUDPSCOPE_SOURCE_DIR);
  for (const fs::path& dir : {root / "tests" / "data" / "link", root / "tests" / "kcp_enet" / "data"}) {
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
      const auto ext = e.path().extension();
      const bool cut = e.path().filename().string().find("trunc") != std::string::npos;
      if ((ext == ".pcap" || ext == ".pcapng") && !cut) caps.push_back(e.path().string());
    }
  }
  caps.push_back((root / "resources" / "sample.pcap").string());
  std::sort(caps.begin(), caps.end());
  return caps;
}

std::vector<std::string> shippedDissectors() {
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(fs::path(RUDPSCOPE_SOURCE_DIR) / "dissectors"))
    if (e.path().extension() == ".lua") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<std::string> tsharkDissectorArgs() {
  std::vector<std::string> args;
  for (const auto& f : shippedDissectors())
    for (const auto& name : wireshark::replacedProtocols(wireshark::readWholeFile(f)))
      args.insert(args.end(), {"--disable-protocol", name});
  for (const auto& f : shippedDissectors()) args.insert(args.end(), {"-X", "lua_script:" + f});
  return args;
}

std::vector<std::string> allDecodeFields() {
  LuaHost host;
  DissectorOptions opts;
  opts.load_defaults = false;
  opts.extra_scripts = shippedDissectors();
  loadDissectors(host, opts);
  std::vector<std::string> fields = FieldPrinter::builtinFields();
  for (std::string_view f : streamFieldNames())  // the UDP ones; tcp_notes' tests have the TCP ones
    if (f.starts_with("udp.")) fields.emplace_back(f);
  for (const auto& f : host.fields()) fields.push_back(f.abbrev);
  return fields;
}

size_t compareWithTshark(const std::string& capture, const std::vector<std::string>& fields,
                         const std::vector<std::string>& prefs, const std::string& displayFilter) {
  std::vector<std::string> ts = {TSHARK_EXECUTABLE, "-n", "-r", capture, "-T", "fields"};
  std::vector<std::string> ours = {RUDPSCOPE_CLI, "decode", capture};
  const auto dissectorArgs = tsharkDissectorArgs();
  ts.insert(ts.end(), dissectorArgs.begin(), dissectorArgs.end());
  for (const auto& p : prefs) {
    ts.push_back("-o");
    ts.push_back(p);
    ours.push_back("-o");
    ours.push_back(p);
  }
  if (!displayFilter.empty()) {
    ts.insert(ts.end(), {"-Y", displayFilter});
    ours.insert(ours.end(), {"-Y", displayFilter});
  }
  for (const auto& f : fields) {
    ts.push_back("-e");
    ts.push_back(f);
    ours.push_back("-e");
    ours.push_back(f);
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

}  // namespace rudp::test
