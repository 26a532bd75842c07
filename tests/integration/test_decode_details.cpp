// `rudpscope-cli decode CAPTURE -V [-O PROTO,...]` prints exactly what tshark
// 4.0 prints with -V -O for the same dissector files: every frame of every
// committed capture, and every label feature on simulated traffic.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <utility>

#include "grudp_flow.h"
#include "process.h"
#include "tshark_compare.h"
#include "wireshark/disabled_protocols.h"
#include "wireshark/file_io.h"

using namespace rudp::test;
namespace fs = std::filesystem;

namespace {

// tshark's lines that start with `prefix`, counted (a kind of line the
// comparison must have met).
struct Counted {
  std::string prefix;
  size_t* count;
};

// Both programs' -V output for `capture` (the frames `filter` passes), with
// -O `expand` (none: every layer expanded); checks they are the same lines.
size_t compareDetails(const std::string& capture, const std::vector<std::string>& scripts,
                      const std::string& expand, bool defaults, const std::string& filter = "",
                      const std::vector<std::string>& tsharkArgs = {},
                      const std::vector<Counted>& counted = {}) {
  std::vector<std::string> ts = {TSHARK_EXECUTABLE, "-n", "-r", capture, "-V"};
  if (!expand.empty()) ts.insert(ts.end(), {"-O", expand});
  ts.insert(ts.end(), tsharkArgs.begin(), tsharkArgs.end());
  std::vector<std::string> ours = {RUDPSCOPE_CLI, "decode", capture, "-V"};
  if (!defaults) ours.push_back("--no-default-dissectors");
  for (const auto& s : scripts) {
    for (const auto& name : rudp::wireshark::replacedProtocols(rudp::wireshark::readWholeFile(s)))
      ts.insert(ts.end(), {"--disable-protocol", name});
    ts.insert(ts.end(), {"-X", "lua_script:" + s});
    ours.insert(ours.end(), {"-X", "lua_script:" + s});
  }
  if (!expand.empty()) ours.insert(ours.end(), {"-O", expand});
  if (!filter.empty()) {
    ts.insert(ts.end(), {"-Y", filter});
    ours.insert(ours.end(), {"-Y", filter});
  }
  const ProcessResult t = run(ts), o = run(ours);
  INFO("capture " << capture << "\ntshark stderr: " << t.err << "\nrudpscope stderr: " << o.err);
  REQUIRE(t.status == 0);
  REQUIRE(o.status == 0);
  const auto tl = splitLines(t.out);
  for (const std::string& line : tl)
    for (const Counted& c : counted) *c.count += line.rfind(c.prefix, 0) == 0;
  const auto ol = splitLines(o.out);
  size_t mismatches = 0;
  for (size_t i = 0; i < std::min(tl.size(), ol.size()); ++i) {
    if (tl[i] == ol[i]) continue;
    if (++mismatches <= 5) {
      INFO("line " << i + 1);
      CHECK(ol[i] == tl[i]);
    }
  }
  CHECK(mismatches == 0);
  CHECK(ol.size() == tl.size());
  return tl.size();
}

// The committed captures but QUIC's, which are compared with their key logs
// below: without them tshark loses track of quic-go's connections (it takes
// a Handshake packet for a new connection and fails its Initial keys),
// where rudpscope follows them by connection id.
std::vector<std::string> capturesWithDetails() {
  std::vector<std::string> out;
  for (const std::string& c : committedCaptures())
    if (c.find("/quic_") == std::string::npos && c.find("/aioquic_") == std::string::npos) out.push_back(c);
  return out;
}

}  // namespace

TEST_CASE("decode -V -O grudp,kcp,enet prints tshark's details of every frame of every committed capture") {
  const auto captures = capturesWithDetails();
  REQUIRE(captures.size() >= 20);
  size_t lines = 0;
  for (const std::string& c : captures) {
    INFO(c);
    lines += compareDetails(c, shippedDissectors(), "grudp,kcp,enet", true);
  }
  CHECK(lines > 200000);
}

const std::string kAllLayers = "frame,eth,vlan,ieee8021ad,sll,null,raw,ip,ipv6,udp,tcp,data,grudp,kcp,enet";

// -V alone expands every layer, as tshark -V: Frame (interface, times,
// frame.protocols), Ethernet and its tags, Linux cooked v1/v2,
// Null/Loopback, raw IP, IPv4 (options, fragments and the reassembly tree),
// IPv6 and its extension headers, UDP (stream index, stream times), TCP
// (below), Data with its hex dump and the Lua protocols.
TEST_CASE("decode -V prints tshark -V's expanded layers on every committed capture") {
  const std::string& layers = kAllLayers;
  size_t lines = 0;
  for (const std::string& c : capturesWithDetails()) {
    INFO(c);
    lines += compareDetails(c, shippedDissectors(), "", true);
  }
  CHECK(lines > 1000000);
  // Each kind of layer is there to compare.
  const ProcessResult o = run(
      {RUDPSCOPE_CLI, "decode", RUDPSCOPE_SOURCE_DIR "/tests/data/link/eth_qinq.pcap", "-V", "-O", layers});
  REQUIRE(o.status == 0);
  for (const char* expected :
       {"    [Protocols in frame: "
        "eth:ethertype:ieee8021ad:ethertype:vlan:ethertype:ipv6:ipv6.hopopts:ipv6.dstopts:udp:grudp]\n",
        "    ...0 .... .... .... = DEI: Ineligible\n",
        "        [Frame: 8, payload: 1480-2959 (1480 bytes)]\n",
        "            Router Alert: Router shall examine packet (0)\n", "            PadN: 00000000\n",
        "    [Stream index: 2]\n", "0000  ", "            [TCP SACK Count: 1]\n",
        "        [The RTT to ACK the segment was: 0.250007000 seconds]\n"})
    CHECK_THAT(o.out, Catch::Contains(expected));
}

// TCP expanded over the live labs' captures (loss, retransmissions of every
// kind, dup acks, SACK and D-SACK, window scaling, FIN): header, flags and
// their experts, window, options, stream times and the SEQ/ACK analysis
// (acked frame and RTT, iRTT, bytes in flight, bytes since PSH, the analysis
// flags, RTO). tshark runs without its TDS heuristic, which takes a few of
// these frames for SQL Server's protocol. Its reassembly code's
// "Retransmitted TCP segment data" line comes only for a retransmission
// captured whole (the labs snap at 128 bytes).
TEST_CASE(
    "decode -V prints tshark -V's layers, TCP's SEQ/ACK analysis among them, on the live labs' captures") {
  size_t retransmittedData = 0, lines = 0, captures = 0;
  for (const auto& e : fs::directory_iterator(fs::path(RUDPSCOPE_SOURCE_DIR) / "tests" / "netns" / "data"))
    for (const char* side : {"client.pcap", "server.pcap"}) {
      const fs::path capture = e.path() / side;
      if (!fs::exists(capture)) continue;
      INFO(capture.string());
      ++captures;
      lines +=
          compareDetails(capture.string(), shippedDissectors(), "", true, "", {"--disable-protocol", "tds"},
                         {{"    Retransmitted TCP segment data (", &retransmittedData}});
    }
  CHECK(captures == 10);
  CHECK(lines > 800000);
  CHECK(retransmittedData ==
        18);  // measured: 1, 2, 1, 2, 2, 2 lines in six of the first eight, 8 in loss5-nodelay-reads
  const ProcessResult o =
      run({RUDPSCOPE_CLI, "decode", RUDPSCOPE_SOURCE_DIR "/tests/netns/data/loss5-nodelay/client.pcap", "-V",
           "-O", "tcp"});
  REQUIRE(o.status == 0);
  for (const char* expected :
       {"                [Expert Info (Warning/Sequence): D-SACK Sequence]\n", "        [Bytes in flight: ",
        "            [RTO based on delta from frame: ", "        [Duplicate to the ACK in frame: ",
        "                [This frame is a (suspected) fast retransmission]\n",
        "    [Conversation completeness: Complete, WITH_DATA (31)]\n",
        "            [Expert Info (Note/Sequence): This frame initiates the connection closing]\n"})
    CHECK_THAT(o.out, Catch::Contains(expected));
}

namespace {

// decode -V -Y's details compared with tshark's, and its frames counted.
size_t framesShown(const std::string& capture, const std::string& filter) {
  compareDetails(capture, shippedDissectors(), "grudp,kcp,enet", true, filter);
  const ProcessResult ours = run({RUDPSCOPE_CLI, "decode", capture, "-V", "-Y", filter});
  REQUIRE(ours.status == 0);
  size_t headers = 0;
  for (const std::string& line : splitLines(ours.out)) headers += line.rfind("Frame ", 0) == 0;
  return headers;
}

size_t tsharkFrames(const std::string& capture, const std::string& filter) {
  const ProcessResult t =
      run({TSHARK_EXECUTABLE, "-n", "-r", capture, "-Y", filter, "-T", "fields", "-e", "frame.number"});
  REQUIRE(t.status == 0);
  return splitLines(t.out).size();
}

}  // namespace

// -Y with -V: the frames shown, and frame.time_delta_displayed counted from
// the last of them (the sample's gaps of 50 ms or more between shown frames).
TEST_CASE("decode -V -Y prints the details of tshark's frames only") {
  const std::string sample = RUDPSCOPE_SOURCE_DIR "/resources/sample.pcap";
  const std::string filter = "frame.time_delta_displayed >= 0.05 || frame.number == 1";
  const size_t shown = framesShown(sample, filter);
  CHECK(shown == tsharkFrames(sample, filter));
  CHECK(shown < 5311 / 10);  // the filter leaves most frames out
}

// Wireshark's TCP analysis fields in -Y: the frames read in order give them.
TEST_CASE("decode -V -Y over tcp.analysis fields prints the details of tshark's frames") {
  const std::string capture = RUDPSCOPE_SOURCE_DIR "/tests/netns/data/loss5-nodelay/server.pcap";
  // tshark's count: 9 retransmissions, one third dup ack
  CHECK(framesShown(capture, "tcp.analysis.retransmission || tcp.analysis.duplicate_ack_num >= 2") == 10);
}

// The stream fields too (the details pane's own stream items; -V -Y once
// found no frame for them).
TEST_CASE(
    "decode -V -Y over tcp.stream, its SEQ/ACK items and udp.stream prints the details of tshark's frames") {
  const std::string tcp = RUDPSCOPE_SOURCE_DIR "/tests/netns/data/loss5-nodelay/server.pcap";
  const std::string sample = RUDPSCOPE_SOURCE_DIR "/resources/sample.pcap";
  for (const auto& [capture, filter] :
       {std::pair<std::string, std::string>{tcp, "tcp.stream == 0 && tcp.analysis.ack_rtt > 0.2"},
        {sample, "udp.stream == 1 && udp.time_delta > 0.04"}}) {
    INFO(filter);
    const size_t shown = framesShown(capture, filter);
    CHECK(shown == tsharkFrames(capture, filter));
    CHECK(shown == 2);
  }
}

TEST_CASE(
    "decode -V labels: value strings, bases, bitmasks, set/append/prepend_text, generated, hidden, experts") {
  TempDir dir("details-labels");
  const std::string cap = dir / "sim.pcap";
  REQUIRE(
      run({GRUDP_SIM, "--out", cap, "--connections", "2", "--duration", "2", "--seed", "5", "--loss", "0.05"})
          .status == 0);
  const std::string script = RUDPSCOPE_SOURCE_DIR "/tests/integration/data/labels.lua";
  CHECK(compareDetails(cap, {script}, "labels", false) > 2000);
  // The lines the features give, so the comparison above covers them.
  const ProcessResult o =
      run({RUDPSCOPE_CLI, "decode", cap, "-V", "--no-default-dissectors", "-X", "lua_script:" + script});
  REQUIRE(o.status == 0);
  for (const char* expected :
       {"    Magic: 0x5255 (21077)\n", "    Magic (octal): 051125\n", "    Magic (dec-hex): 21077 (0x5255)\n",
        "    0001 .... = Version: 1\n", "    [before] .... 0000 = Type (dec): DATA (0)\n",
        "        [.... 1... = Ack: True]\n", "    seven things 8\n", "    Text: hello\n",
        "    A text item with more\n", "        [Expert Info (Note/Sequence): A note about the packet]\n",
        "            [Severity level: Note]\n",
        "        [Expert Info (Warning/Protocol): A warning with its own text]\n", "    Empty: <MISSING>\n",
        "\xE2\x80\xA6\n"})
    CHECK_THAT(o.out, Catch::Contains(expected));
  CHECK_THAT(o.out, !Catch::Contains("Count: 3"));
}

TEST_CASE("decode -O names an unknown protocol in one line, and -e with -V is refused") {
  const std::string sample = RUDPSCOPE_SOURCE_DIR "/resources/sample.pcap";
  ProcessResult r = run({RUDPSCOPE_CLI, "decode", sample, "-O", "nosuch"});
  CHECK(r.status == 2);
  CHECK(r.out.empty());
  CHECK_THAT(r.err, Catch::Contains(
                        "-O nosuch: neither a built-in layer nor a protocol a loaded dissector registers "
                        "(known: enet, grudp, kcp, raknet4, udt4, frame, eth, "));
  r = run({RUDPSCOPE_CLI, "decode", sample, "-V", "-e", "frame.number"});
  CHECK(r.status != 0);
}

namespace {

// The flow's packets in 802.1Q tags whose priorities run 0 to 7, DEI set on odd ones.
[[gnu::noinline]] std::string writeVlanPriorities(const std::string& path) {
  using namespace rudp::testgen;
  using namespace rudp::testgen::flow;
  std::vector<Frame> frames;
  for (int pri = 0; pri < 8; ++pri) {
    Bytes frame =
        ethernet({2, 0, 0, 0, 0, 2}, {2, 0, 0, 0, 0, 1}, grudpPacket(pri % kPackets, false), {0x8100});
    frame[14] = uint8_t(pri << 5 | (pri & 1) << 4);  // the TCI's PCP and DEI, VLAN id 10 kept
    frames.push_back({frame});
  }
  return writePcap(path, 1, frames);
}

}  // namespace

TEST_CASE("decode -V names an 802.1Q tag's priority and DEI as tshark 4.0 does") {
  TempDir dir("details-vlan");
  const std::string capture = writeVlanPriorities(dir / "vlan.pcap");
  size_t tags = 0;
  CHECK(compareDetails(capture, shippedDissectors(), "vlan", true, "", {}, {{"802.1Q Virtual LAN", &tags}}) >
        8);
  CHECK(tags == 8);
  const ProcessResult o = run({RUDPSCOPE_CLI, "decode", capture, "-V", "-O", "vlan"});
  REQUIRE(o.status == 0);
  for (const char* expected :
       {"    000. .... .... .... = Priority: Best Effort (default) (0)\n",
        "    010. .... .... .... = Priority: Excellent Effort (2)\n",
        "    011. .... .... .... = Priority: Critical Applications (3)\n",
        "    110. .... .... .... = Priority: Internetwork Control (6)\n",
        "    111. .... .... .... = Priority: Network Control (7)\n",
        "    ...1 .... .... .... = DEI: Eligible\n", "802.1Q Virtual LAN, PRI: 5, DEI: 1, ID: 10\n"})
    CHECK_THAT(o.out, Catch::Contains(expected));
}

namespace {

// The flow's packets behind the pre-standard QinQ tag 0x9100 (Wireshark's
// vlan), alone, above an 802.1Q tag and below an 802.1ad one; VLAN ids 100 +
// the frame's index.
[[gnu::noinline]] std::string writeOldQinQ(const std::string& path) {
  using namespace rudp::testgen;
  using namespace rudp::testgen::flow;
  const std::vector<std::vector<uint16_t>> stacks = {{0x9100}, {0x9100, 0x8100}, {0x88a8, 0x9100}};
  std::vector<Frame> frames;
  for (size_t i = 0; i < 6; ++i) {
    const auto& tags = stacks[i % stacks.size()];
    Bytes frame =
        ethernet({2, 0, 0, 0, 0, 2}, {2, 0, 0, 0, 0, 1}, grudpPacket(int(i) % kPackets, false), tags);
    for (size_t t = 0; t < tags.size(); ++t) {  // each tag's TCI: priority t + 1, id 100 + i
      frame[14 + 4 * t] = uint8_t((t + 1) << 5);
      frame[15 + 4 * t] = uint8_t(100 + i);
    }
    frames.push_back({frame});
  }
  return writePcap(path, 1, frames);
}

}  // namespace

TEST_CASE("the pre-standard QinQ tag 0x9100 is a VLAN tag in the details and the filters as in tshark") {
  TempDir dir("details-qinq-old");
  const std::string capture = writeOldQinQ(dir / "qinq_old.pcap");
  size_t tags = 0;
  CHECK(compareDetails(capture, shippedDissectors(), "eth,vlan,ieee8021ad,grudp", true, "", {},
                       {{"802.1Q Virtual LAN", &tags}}) > 6);
  CHECK(tags == 8);  // 1 + 2 + 1 per three frames
  for (const char* filter : {"vlan", "vlan.id == 101", "vlan.id == 104", "vlan.priority == 2", "udp"}) {
    INFO(filter);
    CHECK(framesShown(capture, filter) == tsharkFrames(capture, filter));
  }
  CHECK(tsharkFrames(capture, "vlan") == 6);
  CHECK(tsharkFrames(capture, "vlan.priority == 2") ==
        4);  // the 802.1Q under 0x9100, the 0x9100 under 802.1ad
}

namespace {

// The flow's first two packets, the second sent from a multicast MAC.
[[gnu::noinline]] std::string writeGroupSource(const std::string& path) {
  using namespace rudp::testgen;
  using namespace rudp::testgen::flow;
  return writePcap(path, 1,
                   {{ethernet({2, 0, 0, 0, 0, 2}, {2, 0, 0, 0, 0, 1}, grudpPacket(0, false))},
                    {ethernet({2, 0, 0, 0, 0, 1}, {1, 0, 0x5e, 0x41, 0x8d, 0xcf}, grudpPacket(1, false))}});
}

}  // namespace

TEST_CASE("decode -V warns of an Ethernet source MAC with the group bit as tshark does") {
  TempDir dir("details-eth-group");
  const std::string capture = writeGroupSource(dir / "group.pcap");
  size_t warnings = 0;
  const std::string warning =
      "        [Expert Info (Warning/Protocol): Source MAC must not be a group address: IEEE 802.3-2002, "
      "Section 3.2.3(b)]";
  CHECK(compareDetails(capture, shippedDissectors(), "eth", true, "", {}, {{warning, &warnings}}) > 2);
  CHECK(warnings == 1);
  const ProcessResult o = run({RUDPSCOPE_CLI, "decode", capture, "-V", "-O", "eth"});
  CHECK_THAT(o.out, Catch::Contains("    Source: 01:00:5e:41:8d:cf\n" + warning + "\n"));
}

namespace {

// tshark's -V lines without the TLS handshake it dissects under a CRYPTO
// frame's "Crypto Data" (what rudpscope does not print yet), and without
// the "tls" and later names that handshake adds to "Protocols in frame".
// `cut`: the lines left out.
std::vector<std::string> withoutTlsHandshake(const std::vector<std::string>& lines, size_t& cut) {
  std::vector<std::string> out;
  bool inCrypto = false;
  for (const std::string& line : lines) {
    const size_t indent = line.find_first_not_of(' ');
    if (inCrypto && indent != std::string::npos && indent >= 8) {
      ++cut;
      continue;
    }
    inCrypto = line == "        Crypto Data";
    const size_t tls = line.find(":quic:tls");
    out.push_back(line.rfind("    [Protocols in frame: ", 0) == 0 && tls != std::string::npos
                      ? line.substr(0, tls + 5) + "]"
                      : line);
  }
  return out;
}

}  // namespace

// QUIC's layers with the endpoint's key log: every header field (the bits
// header protection hid among them), every frame of every packet, the
// coalesced packets and the padding after them, on quic-go's and aioquic's
// captures (aioquic_frames: every frame type, a rebinding, a transport
// close). The TLS handshake tshark prints under CRYPTO is left out, and
// counted: rudpscope does not print it yet.
TEST_CASE("decode -V prints tshark's QUIC layers with the key log, but the TLS handshake under CRYPTO") {
  const std::vector<std::pair<std::string, size_t>> runs = {
      {"quic_loss0", 447}, {"quic_loss5", 449}, {"aioquic_loss5", 347}, {"aioquic_frames", 345}};
  for (const auto& [name, tlsLines] : runs) {
    INFO(name);
    const std::string dir = RUDPSCOPE_SOURCE_DIR "/tests/kcp_enet/data/" + name;
    const std::string keys = "tls.keylog_file:" + dir + "/client.keylog";
    const ProcessResult t = run({TSHARK_EXECUTABLE, "-n", "-r", dir + "/client.pcap", "-o", keys, "-V"});
    const ProcessResult o = run({RUDPSCOPE_CLI, "decode", dir + "/client.pcap", "-o", keys, "-V"});
    REQUIRE(t.status == 0);
    REQUIRE(o.status == 0);
    size_t cut = 0;
    const auto tl = withoutTlsHandshake(splitLines(t.out), cut);
    const auto ol = splitLines(o.out);
    size_t mismatches = 0;
    for (size_t i = 0; i < std::min(tl.size(), ol.size()); ++i)
      if (tl[i] != ol[i] && ++mismatches <= 5) {
        INFO("line " << i + 1);
        CHECK(ol[i] == tl[i]);
      }
    CHECK(mismatches == 0);
    CHECK(ol.size() == tl.size());
    CHECK(cut == tlsLines);  // measured: the ClientHello's and the server's flight's trees
  }
}
