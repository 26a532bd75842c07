// The packet list's columns of every frame, read back from its capture with
// the database's row (analysis/packets), against tshark 4.0's columns with
// the same dissector files.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>

#include "grudp_flow.h"
#include "packets/frame_dissector.h"
#include "packets/frame_time.h"
#include "process.h"
#include "store/store_reader.h"
#include "tshark_compare.h"

using namespace rudp;
using namespace rudp::test;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> linkAndSampleCaptures() {
  std::vector<std::string> caps;
  for (const auto& e : fs::directory_iterator(fs::path(RUDPSCOPE_SOURCE_DIR) / "tests" / "data" / "link")) {
    const auto ext = e.path().extension();
    const bool cut = e.path().filename().string().find("trunc") != std::string::npos;
    if ((ext == ".pcap" || ext == ".pcapng") && !cut) caps.push_back(e.path().string());
  }
  caps.push_back((fs::path(RUDPSCOPE_SOURCE_DIR) / "resources" / "sample.pcap").string());
  std::sort(caps.begin(), caps.end());
  return caps;
}

DissectorOptions shippedOptions() {
  DissectorOptions opts;
  opts.load_defaults = false;
  opts.extra_scripts = shippedDissectors();
  return opts;
}

std::string analyse(const std::string& capture, const TempDir& dir) {
  const std::string db = dir / (fs::path(capture).filename().string() + ".sqlite");
  const ProcessResult r = run({RUDPSCOPE_CLI, "analyze", capture, "--db", db});
  INFO(r.err);
  REQUIRE(r.status == 0);
  return db;
}

// tshark's columns, one vector of tab-separated fields per frame.
std::vector<std::vector<std::string>> tsharkColumns(const std::string& capture,
                                                    const std::string& timeFormat) {
  std::vector<std::string> argv = {TSHARK_EXECUTABLE, "-n", "-r", capture, "-t", timeFormat, "-T", "fields"};
  for (const auto& a : tsharkDissectorArgs()) argv.push_back(a);
  for (const char* c : {"frame.number", "_ws.col.Time", "_ws.col.Source", "_ws.col.Destination",
                        "_ws.col.Protocol", "_ws.col.Length", "_ws.col.Info"})
    argv.insert(argv.end(), {"-e", c});
  const ProcessResult r = run(argv);
  INFO(r.err);
  REQUIRE(r.status == 0);
  std::vector<std::vector<std::string>> rows;
  for (const std::string& line : splitLines(r.out)) {
    std::vector<std::string> cols = splitTabs(line);
    REQUIRE(cols.size() == 7);
    rows.push_back(std::move(cols));
  }
  return rows;
}

}  // namespace

TEST_CASE("the packet list's columns agree with tshark on every committed capture") {
  TempDir dir("packet-columns");
  std::map<std::string, size_t> infoCompared;  // protocol -> frames whose Info was compared
  for (const std::string& capture : linkAndSampleCaptures()) {
    INFO("capture " << capture);
    const std::string db = analyse(capture, dir);
    StoreReader reader(db);
    const CaptureInfo info = reader.capture();
    FrameDissector dissector(capture, shippedOptions(), info.first_ts_ns);
    const auto expected = tsharkColumns(capture, "r");
    const std::vector<PacketRecord> rows = reader.packets({});
    REQUIRE(rows.size() == expected.size());
    REQUIRE(dissector.seeks());
    // Backwards, so every frame is found by its offset and not by reading on.
    for (size_t i = rows.size(); i-- > 0;) {
      const PacketRecord& row = rows[i];
      const DissectedFrame f = dissector.dissect(row, false);
      const auto& t = expected[i];
      INFO("frame " << row.frame << ": tshark " << t[4] << " | " << t[6] << "\n  ours " << f.protocol << " | "
                    << f.info);
      CHECK(std::to_string(row.frame) == t[0]);
      CHECK(formatFrameTime(TimeFormat::Relative, {row.ts_ns, info.first_ts_ns, 0, 0},
                            dissector.timestampDigits()) == t[1]);
      CHECK(std::to_string(row.origlen) == t[5]);
      CHECK(f.bytes.size() == row.caplen);
      // Addresses: IP frames (tshark shows link addresses for the others).
      if (!f.source.empty()) {
        CHECK(f.source == t[2]);
        CHECK(f.destination == t[3]);
      }
      // Protocol and Info: the frames a Lua dissector or plain UDP answers
      // for (tshark's own dissectors of other protocols are not followed).
      const bool ours = f.protocol == t[4] && f.protocol != "TCP" && !f.protocol.empty() &&
                        f.protocol != "IPv4" && f.protocol != "IPv6";
      if (ours) {
        CHECK(f.info == t[6]);
        ++infoCompared[f.protocol];
      }
    }
  }
  INFO("Info compared per protocol");
  for (const auto& [proto, n] : infoCompared) UNSCOPED_INFO(proto << ": " << n);
  CHECK(infoCompared["GRUDP"] >= 1000);
}

TEST_CASE("the packet list's times agree with tshark's in every time display format") {
  TempDir dir("packet-times");
  for (const std::string name : {"resources/sample.pcap", "tests/data/link/eth_nsec.pcapng"}) {
    const std::string capture = (fs::path(RUDPSCOPE_SOURCE_DIR) / name).string();
    INFO("capture " << capture);
    StoreReader reader(analyse(capture, dir));
    const CaptureInfo info = reader.capture();
    FrameDissector dissector(capture, shippedOptions(), info.first_ts_ns);
    CHECK(dissector.timestampDigits() == (name.find("nsec") != std::string::npos ? 9 : 6));
    const std::vector<PacketRecord> rows = reader.packets({});
    REQUIRE(rows.size() >= 10);
    for (const TimeFormatInfo& format : timeFormats()) {
      INFO("-t " << format.tshark);
      const auto expected = tsharkColumns(capture, format.tshark);
      REQUIRE(expected.size() == rows.size());
      for (size_t i = 0; i < rows.size(); ++i) {
        const int64_t previous = rows[i > 0 ? i - 1 : 0].ts_ns;
        const FrameTimes t{rows[i].ts_ns, info.first_ts_ns, previous, previous};
        INFO("frame " << rows[i].frame);
        CHECK(formatFrameTime(format.format, t, dissector.timestampDigits()) == expected[i][1]);
      }
    }
  }
}

TEST_CASE("a compressed capture's frames are read forward from the start, in any order") {
  TempDir dir("packet-gzip");
  const std::string plain =
      (fs::path(RUDPSCOPE_SOURCE_DIR) / "tests" / "data" / "link" / "eth.pcapng").string();
  const std::string gz = dir / "eth.pcapng.gz";
  REQUIRE(run({"sh", "-c", "gzip -c '" + plain + "' > '" + gz + "'"}).status == 0);
  StoreReader reader(analyse(gz, dir));
  const std::vector<PacketRecord> rows = reader.packets({});
  REQUIRE(rows.size() >= 3);
  FrameDissector fromGz(gz, shippedOptions(), reader.capture().first_ts_ns);
  FrameDissector fromPlain(plain, shippedOptions(), reader.capture().first_ts_ns);
  for (size_t i : {rows.size() - 1, size_t(0), rows.size() / 2, rows.size() - 1}) {
    const DissectedFrame a = fromGz.dissect(rows[i], true), b = fromPlain.dissect(rows[i], true);
    CHECK(a.bytes == b.bytes);
    CHECK(a.info == b.info);
    CHECK(a.items.size() == b.items.size());
  }
  CHECK_FALSE(fromGz.seeks());
  CHECK(fromPlain.seeks());
}

TEST_CASE("a frame that is not where the database says gives one line naming the file") {
  TempDir dir("packet-changed");
  const std::string capture = dir / "sample.pcap";
  fs::copy_file(fs::path(RUDPSCOPE_SOURCE_DIR) / "resources" / "sample.pcap", capture);
  StoreReader reader(analyse(capture, dir));
  const std::vector<PacketRecord> rows = reader.packets({});
  FrameDissector dissector(capture, shippedOptions(), reader.capture().first_ts_ns);
  PacketRecord moved = rows[5];
  moved.file_offset = rows[6].file_offset;  // another frame lies there
  CHECK_THROWS_WITH(dissector.dissect(moved, false),
                    Catch::Contains("frame 6 differs from the one analysed"));
  fs::resize_file(capture, rows[3].file_offset + 20);  // the file was cut since
  FrameDissector cut(capture, shippedOptions(), reader.capture().first_ts_ns);
  CHECK_THROWS_WITH(cut.dissect(rows[4], false),
                    Catch::Contains("has no frame 5 at offset " + std::to_string(rows[4].file_offset)));
  CHECK(cut.dissect(rows[2], false).bytes.size() == rows[2].caplen);
}

// TCP's Info: Wireshark's analysis notes ("[TCP Retransmission] ", "[TCP
// Dup ACK 5#1] ", ...), flags, numbers, Win (scaled by the handshake's WS
// when the capture has it), Urg, Len and the options tshark names, in the
// header's order. Not shown: " [TCP segment of a reassembled PDU]", which
// tshark appends here only because its TDS heuristic takes one lab frame for
// TDS and then reassembles the rest of that stream.
namespace {

struct TcpInfoCount {
  size_t compared = 0, with_sack = 0, scaled = 0;
  std::map<std::string, size_t> notes;  // tshark's, by kind
};

// `relative`: Wireshark's relative sequence numbers (its default), from the
// bases the database keeps, or raw ones (-o tcp.relative_sequence_numbers:FALSE).
void checkTcpInfo(const std::string& capture, const TempDir& dir, TcpInfoCount& n, bool relative = true) {
  static const std::regex reassembled(R"( \[TCP segment of a reassembled PDU\]$)");
  static const std::regex note(R"(\[TCP ([A-Za-z -]+)[^\]]*\] )");
  INFO("capture " << capture << (relative ? "" : ", raw sequence numbers"));
  StoreReader reader(analyse(capture, dir));
  DissectorOptions options = shippedOptions();
  const std::string pref = std::string("tcp.relative_sequence_numbers:") + (relative ? "TRUE" : "FALSE");
  options.prefs.emplace_back("tcp.relative_sequence_numbers", relative ? "TRUE" : "FALSE");
  FrameDissector dissector(capture, options, reader.capture().first_ts_ns);
  dissector.setConnectionHead([&reader](int64_t conn) {
    PacketQuery q;
    q.conn = conn;
    q.limit = 16;
    return reader.packets(q);
  });
  dissector.setConnectionSeqBases([&reader](int64_t conn) { return reader.tcpSeqBases(conn); });
  const ProcessResult r =
      run({TSHARK_EXECUTABLE, "-n", "-r", capture, "-o", pref, "-T", "fields", "-e", "_ws.col.Protocol", "-e",
           "_ws.col.Info", "-e", "tcp.window_size_value", "-e", "tcp.window_size"});
  REQUIRE(r.status == 0);
  const std::vector<PacketRecord> rows = reader.packets({});
  const std::vector<std::string> lines = splitLines(r.out);
  REQUIRE(lines.size() == rows.size());
  // Backwards: each connection's handshake is read while its later frames are shown.
  for (size_t i = rows.size(); i-- > 0;) {
    const std::vector<std::string> t = splitTabs(lines[i]);
    REQUIRE(t.size() == 4);
    if (t[0] != "TCP") continue;
    const DissectedFrame f = dissector.dissect(rows[i], false);
    INFO("frame " << rows[i].frame << ": tshark " << t[1]);
    CHECK(f.protocol == "TCP");
    CHECK(f.info == std::regex_replace(t[1], reassembled, ""));
    for (std::sregex_iterator m(t[1].begin(), t[1].end(), note), end; m != end; ++m) ++n.notes[(*m)[1]];
    ++n.compared;
    n.with_sack += t[1].find(" SLE=") != std::string::npos;
    n.scaled += t[2] != t[3];
  }
}

}  // namespace

TEST_CASE("TCP Info agrees with tshark's with its analysis notes") {
  TempDir dir("packet-tcp-info");
  TcpInfoCount n;
  for (const auto& e : fs::directory_iterator(fs::path(RUDPSCOPE_SOURCE_DIR) / "tests" / "netns" / "data"))
    for (const char* side : {"client.pcap", "server.pcap"}) checkTcpInfo((e.path() / side).string(), dir, n);
  INFO(n.compared << " frames, " << n.with_sack << " with SACK blocks, " << n.scaled
                  << " with a scaled window");
  for (const auto& [kind, count] : n.notes) UNSCOPED_INFO("tshark's [TCP " << kind << "...]: " << count);
  CHECK(n.notes.size() >= 6);
  CHECK(n.compared >= 8000);
  CHECK(n.with_sack >= 400);
  CHECK(n.scaled >= 8000);
}

TEST_CASE("TCP Info of a capture that starts after the handshake shows the header's window") {
  TempDir dir("packet-tcp-cut");
  const std::string cut = dir / "cut.pcap";
  const std::string whole =
      (fs::path(RUDPSCOPE_SOURCE_DIR) / "tests" / "netns" / "data" / "loss5-nodelay" / "client.pcap")
          .string();
  REQUIRE(run({"editcap", "-r", whole, cut, "20-200"}).status == 0);
  TcpInfoCount n;
  checkTcpInfo(cut, dir, n);  // relative numbers from one below the first seq and ack
  CHECK(n.compared == 181);
  CHECK(n.scaled == 0);
  TcpInfoCount raw;
  checkTcpInfo(cut, dir, raw, false);
  CHECK(raw.compared == 181);
}

TEST_CASE("a UDP datagram without a checksum over IPv6 has tshark's [ILLEGAL CHECKSUM (0)] in its Info") {
  using namespace rudp::testgen;
  using namespace rudp::testgen::flow;
  TempDir dir("udp-zero-info");
  const std::vector<Frame> frames = {
      {inEthernet(
          ipv4(kClient, kServer, 17, withoutChecksum(udp(kClient, kServer, 50001, 9999, pattern(12, 3)))))},
      {inEthernet(ipv6(kClient6, kServer6, 17, {},
                       withoutChecksum(udp(kClient6, kServer6, 50001, 9999, pattern(12, 3)))))},
      {inEthernet(ipv6(kServer6, kClient6, 17, {}, withoutChecksum(grudpSegment(1, true))))},
      {inEthernet(ipv6(kClient6, kServer6, 17, {}, udp(kClient6, kServer6, 50001, 9999, pattern(12, 3))))}};
  const std::string capture = writePcap(dir / "zero.pcap", 1, frames);
  StoreReader reader(analyse(capture, dir));
  FrameDissector dissector(capture, shippedOptions(), reader.capture().first_ts_ns);
  const auto expected = tsharkColumns(capture, "r");
  const std::vector<PacketRecord> rows = reader.packets({});
  REQUIRE(rows.size() == frames.size());
  REQUIRE(expected.size() == frames.size());
  std::vector<std::string> info;
  for (const PacketRecord& row : rows) info.push_back(dissector.dissect(row, false).info);
  const std::string ports = "50001 \xE2\x86\x92 9999 Len=12";
  CHECK(info[0] == ports);
  CHECK(info[1] == ports + " [ILLEGAL CHECKSUM (0)]");
  CHECK(info[3] == ports);
  for (size_t i = 0; i < rows.size(); ++i) CHECK(info[i] == expected[i][6]);
}

TEST_CASE(
    "a held IPv6 fragment's layer covers its header and fragment header, its bytes the Data after them") {
  using namespace rudp::testgen;
  using namespace rudp::testgen::flow;
  TempDir dir("ipv6-held");
  const Bytes seg = grudpSegment(0, true);
  const Bytes header = fragmentHeader(17, 0, true, 0x80000000u);
  const std::string capture =
      writePcap(dir / "held.pcap", 1,
                {{inEthernet(ipv6(kClient6, kServer6, 44, header, Bytes(seg.begin(), seg.begin() + 32)))}});
  StoreReader reader(analyse(capture, dir));
  FrameDissector dissector(capture, shippedOptions(), reader.capture().first_ts_ns);
  const std::vector<PacketRecord> rows = reader.packets({});
  REQUIRE(rows.size() == 1);
  const DissectedFrame frame = dissector.dissect(rows[0], true);
  const auto layer = [&](const std::string& field) {
    return std::find_if(frame.items.begin(), frame.items.end(),
                        [&](const FrameItem& i) { return i.depth == 0 && i.field == field; });
  };
  // Ethernet's 14 bytes, the IPv6 header's 40 and the fragment header's 8, then 32 held bytes.
  REQUIRE(layer("ipv6") != frame.items.end());
  CHECK(layer("ipv6")->offset == 14);
  CHECK(layer("ipv6")->length == 40 + 8);
  REQUIRE(layer("data") != frame.items.end());
  CHECK(layer("data")->label == "Data (32 bytes)");
  CHECK(layer("data")->offset == 14 + 48);
  CHECK(layer("data")->length == 32);
}
