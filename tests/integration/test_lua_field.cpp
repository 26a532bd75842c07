// Field.new, as in Wireshark 4.0: a dissector reads the IP and UDP header
// fields and fields added before it in the same packet (its own, through
// extractors made before they were registered). tests/integration/data/
// field_reader.lua writes what it reads (tostring, len, the value's type and
// text, the name) into its own fields; `decode -e` must print exactly what
// tshark 4.0 prints running the same file, on the link captures (IPv4, IPv6,
// fragments, every link type), the sample and a VXLAN tunnel (two of each
// header). A name neither kind of field has fails the load with one line;
// an extractor made while dissecting fails the packet, as in Wireshark.
// Also `print`: a file's top-level and init lines appear once however many
// dissector lanes load it, and a packet's once, as tshark prints them.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "capture_checks.h"
#include "grudp_flow.h"
#include "tunnel_frames.h"

using namespace rudp;
using namespace rudp::test;
using namespace rudp::testgen;
using namespace rudp::testgen::flow;

namespace {

const std::string kScript = RUDPSCOPE_SOURCE_DIR "/tests/integration/data/field_reader.lua";
const std::vector<std::string> kFields = {"freader.ip_src",     "freader.ip_addr",     "freader.ipv6_dst",
                                          "freader.ip_ttl",     "freader.udp_srcport", "freader.udp_port",
                                          "freader.udp_length", "freader.own",         "freader.count"};

std::vector<std::string> withFields(std::vector<std::string> argv) {
  for (const auto& f : kFields) argv.insert(argv.end(), {"-e", f});
  return argv;
}

std::string oursFor(const std::string& capture) {
  const ProcessResult r = run(withFields(
      {RUDPSCOPE_CLI, "decode", capture, "--no-default-dissectors", "-X", "lua_script:" + kScript}));
  INFO(capture << ": " << r.err);
  REQUIRE(r.status == 0);
  CHECK(r.err.empty());
  return r.out;
}

std::string tsharkFor(const std::string& capture) {
  const ProcessResult r = run(
      withFields({TSHARK_EXECUTABLE, "-n", "-r", capture, "-X", "lua_script:" + kScript, "-T", "fields"}));
  INFO(capture << ": " << r.err);
  REQUIRE(r.status == 0);
  return r.out;
}

std::string writeScript(const TempDir& dir, const std::string& body) {
  const std::string path = dir / "bad_field.lua";
  std::ofstream(path) << "local p = Proto('badf', 'Bad field')\n"
                      << body << "\nDissectorTable.get('udp.port'):add(7777, p)\n";
  return path;
}

// The lines printing.lua prints, in order, among the command's output.
std::vector<std::string> printedLines(const std::string& out) {
  std::vector<std::string> lines;
  for (const auto& l : splitLines(out))
    if (l.rfind("loaded", 0) == 0 || l == "init" || l.rfind("frame\t", 0) == 0) lines.push_back(l);
  return lines;
}

}  // namespace

TEST_CASE("Field.new reads header and dissector fields as tshark does on the link captures and the sample") {
  std::vector<std::string> captures = {RUDPSCOPE_SOURCE_DIR "/resources/sample.pcap"};
  for (const auto& e : std::filesystem::directory_iterator(RUDPSCOPE_SOURCE_DIR "/tests/data/link"))
    if (e.path().extension() == ".pcap" && e.path().filename().string().find("trunc") == std::string::npos)
      captures.push_back(e.path());
  for (const auto& capture : captures) CHECK(oursFor(capture) == tsharkFor(capture));
  // One line as it must read: frame 1 of eth.pcap, client 10.0.0.1:50000 to 7777.
  const std::string eth = oursFor(RUDPSCOPE_SOURCE_DIR "/tests/data/link/eth.pcap");
  const std::string line = splitLines(eth).at(0);
  CHECK(line.find("10.0.0.1/4/Address/10.0.0.1/ip.src\t"
                  "10.0.0.1/4/Address/10.0.0.1/ip.addr;10.0.0.2/4/Address/10.0.0.2/ip.addr\tnone\t") == 0);
  CHECK(line.find("\t50000/2/number/50000/udp.srcport\t") != std::string::npos);
}

TEST_CASE("Field.new gives every header's occurrence, outermost first, through a VXLAN tunnel") {
  TempDir dir("lua-field");
  const Ip4 a{192, 0, 2, 1}, b{198, 51, 100, 2};
  const std::string capture = writeCapture(dir / "vxlan.pcap", 1, false, [&](int i, const Bytes& inner) {
    const Ip4& s = fromClient(i) ? a : b;
    const Ip4& d = fromClient(i) ? b : a;
    const Bytes tunnel = vxlan(0x1234, inEthernet(inner));
    return inEthernet(ipv4(s, d, 17, udp(s, d, uint16_t(49152 + i), 4789, tunnel), uint16_t(0x300 + i)));
  });
  const std::string ours = oursFor(capture);
  CHECK(ours == tsharkFor(capture));
  const std::string first = splitLines(ours).at(0);
  CHECK(first.find("192.0.2.1/4/Address/192.0.2.1/ip.src;10.0.0.1/4/Address/10.0.0.1/ip.src\t") == 0);
  CHECK(first.find("49152/2/number/49152/udp.srcport;50000/2/number/50000/udp.srcport") != std::string::npos);
}

TEST_CASE("Field.new of a field no dissector registers fails the load with one line naming what it reads") {
  TempDir dir("lua-field-bad");
  const std::string script = writeScript(dir, "local f = Field.new('tcp.no_such_field')");
  const ProcessResult r = run({RUDPSCOPE_CLI, "decode", RUDPSCOPE_SOURCE_DIR "/resources/sample.pcap",
                               "--no-default-dissectors", "-X", "lua_script:" + script});
  CHECK(r.status != 0);
  CHECK(r.out.empty());
  CHECK(splitLines(r.err).size() == 1);
  CHECK(
      r.err.find("bad_field.lua:2: bad argument #1 to 'new' (a field with this name must exist (rudpscope's "
                 "Lua host reads the Lua dissectors' fields and ip.src,") != std::string::npos);
}

TEST_CASE("Field.new inside a dissector is an error on that packet, as in Wireshark") {
  TempDir dir("lua-field-late");
  const std::string script = writeScript(dir, R"(
local f = ProtoField.uint8('badf.x', 'x')
p.fields = {f}
function p.dissector(tvb, pinfo, tree)
  tree:add(p, tvb())
  local late = Field.new('udp.srcport')
end)");
  const ProcessResult r = run({RUDPSCOPE_CLI, "decode", RUDPSCOPE_SOURCE_DIR "/tests/data/link/eth.pcap",
                               "--no-default-dissectors", "-X", "lua_script:" + script, "-V", "-O", "badf"});
  INFO(r.err);
  CHECK(r.status == 0);
  const std::string error =
      "bad_field.lua:7: Field_new: A Field extractor must be defined before Taps or Dissectors get called";
  CHECK(splitLines(r.out).at(5) == "    [Lua Error: " + error + "]");
}

TEST_CASE("print writes a file's load and init lines once with two dissector lanes, as tshark") {
  TempDir dir("lua-print");
  const std::string script = dir / "printing.lua";
  std::ofstream(script) << R"(print("loaded", 1)
local p = Proto("prt", "Print test")
function p.init() print("init") end
function p.dissector(tvb, pinfo, tree)
  tree:add(p, tvb())
  if pinfo.number == 3 then print("frame", pinfo.number) end
end
DissectorTable.get("udp.port"):add(7777, p)
)";
  const std::string capture = RUDPSCOPE_SOURCE_DIR "/tests/data/link/eth.pcap";
  const ProcessResult t = run(
      {TSHARK_EXECUTABLE, "-n", "-r", capture, "-X", "lua_script:" + script, "-T", "fields", "-e", "prt"});
  REQUIRE(t.status == 0);
  const std::vector<std::string> printed = {"loaded\t1", "init", "frame\t3"};
  // tshark runs the init routines again when it closes the file.
  const std::vector<std::string> tsharkPrinted = {"loaded\t1", "init", "frame\t3", "init"};
  CHECK(printedLines(t.out) == tsharkPrinted);
  const ProcessResult a = run({RUDPSCOPE_CLI, "analyze", capture, "--no-default-dissectors", "-X",
                               "lua_script:" + script, "--db", dir / "a.sqlite", "-j", "2", "-q", "--json"});
  INFO(a.err);
  REQUIRE(a.status == 0);
  CHECK(printedLines(a.out) == printed);
  CHECK(a.out.find("frame\t3\n{") != std::string::npos);  // the JSON follows
}
