// udt.lua (protocol udt4) against Wireshark's built-in UDT dissector, field
// for field, on captures of the real UDT4 library (libudt 4.11: lab.sh
// --proto udt and lab_cell.sh --stack udt); its own fields (the NAK loss
// list, light ACKs, drop request, peer error, payload) against the bytes;
// rudpscope's Lua host against tshark running the same file.
#include "capture_files.h"
#include "kcp_enet_checks.h"
#include "tshark_compare.h"

using namespace kcpenet;
namespace tg = rudp::testgen;

namespace {

// Every field of Wireshark 4.0's udt dissector but its expert item
// (udt.nak_seqno: an expert in rudpscope, not a field; its texts are
// compared below).
const std::vector<std::string> kFields = {
    "iscontrol", "type",       "seqno",     "addinfo", "msgno",  "msg.first",      "msg.last",   "msg.order",
    "timestamp", "id",         "ack_seqno", "ackno",   "rtt",    "rttvar",         "buf",        "rate",
    "linkcap",   "hs.version", "hs.type",   "hs.isn",  "hs.mtu", "hs.flow_window", "hs.reqtype", "hs.id",
    "hs.cookie", "hs.peerip"};

std::vector<std::string> linesOf(std::vector<std::string> argv, const std::string& prefix) {
  for (const auto& f : kFields) argv.insert(argv.end(), {"-e", prefix + f});
  const auto r = run(argv);
  INFO(r.err);
  REQUIRE(r.status == 0);
  return splitLines(r.out);
}

std::vector<std::string> tsharkWithUdtLua() {
  std::vector<std::string> argv = {TSHARK_EXECUTABLE, "-n"};
  for (const auto& a : rudp::test::tsharkDissectorArgs()) argv.push_back(a);
  return argv;
}

size_t column(const std::string& field) {
  return size_t(std::find(kFields.begin(), kFields.end(), field) - kFields.begin());
}

size_t count(const std::vector<std::string>& lines, const std::string& field, const std::string& value) {
  size_t n = 0;
  for (const auto& l : lines) n += split(l, '\t').at(column(field)) == value;
  return n;
}

// Fields with a value, over every frame.
size_t filled(const std::vector<std::string>& lines) {
  size_t n = 0;
  for (const auto& l : lines)
    for (const auto& v : split(l, '\t')) n += !v.empty();
  return n;
}

// Every udt4 field udt.lua registers.
std::vector<std::string> udt4Fields() {
  std::vector<std::string> out;
  for (const auto& f : rudp::test::allDecodeFields())
    if (f.rfind("udt4.", 0) == 0) out.push_back(f);
  return out;
}

struct LossEntry {
  uint32_t first = 0;
  bool range = false;
  uint32_t last = 0;
};

// A NAK's loss list from its UDP payload (hex), word by word from byte 16.
std::vector<LossEntry> lossList(const std::string& hex) {
  std::vector<uint32_t> words;
  for (size_t i = 32; i + 8 <= hex.size(); i += 8)
    words.push_back(uint32_t(std::stoul(hex.substr(i, 8), nullptr, 16)));
  std::vector<LossEntry> out;
  for (size_t i = 0; i < words.size(); ++i) {
    LossEntry e;
    e.first = words[i] & 0x7fffffffu;
    e.range = (words[i] & 0x80000000u) != 0;
    if (e.range) {
      if (i + 1 == words.size()) break;
      e.last = words[++i] & 0x7fffffffu;
    }
    out.push_back(e);
  }
  return out;
}

// The built-in dissector's expert text for one entry, relative to `isn`.
std::string expertText(const LossEntry& e, uint32_t isn) {
  const auto rel = [&](uint32_t v) { return std::to_string(uint32_t(v - isn)); };
  if (e.range)
    return "Missing Sequence Numbers: " + rel(e.first) + "-" + rel(e.last) + " (relative) [" +
           std::to_string(e.first) + "-" + std::to_string(e.last) + "]";
  return "Missing Sequence Number : " + rel(e.first) + " (relative) [" + std::to_string(e.first) + "]";
}

// One capture of a lab run and what it holds (the built-in dissector's
// counts): frames, control packets, fields with a value among kFields, NAKs,
// their range entries, handshakes, light ACKs, the handshakes' ISN.
struct Capture {
  std::string path;
  size_t frames, controls, filled, naks, nakRanges, handshakes, lightAcks;
  uint32_t isn;
};

// udt_loss5: lab.sh --proto udt --loss 5 (both ends); udt_lab_loss5_delay40:
// lab_cell.sh --stack udt --loss 5 --delay 40 (the client's end, pcapng).
const std::vector<Capture>& captures() {
  static const std::vector<Capture> caps = {
      {"udt_loss5/client.pcap", 1563, 484, 12403, 36, 2, 5, 4, 1780848226},
      {"udt_loss5/server.pcap", 1531, 488, 12132, 38, 2, 4, 4, 1780848226},
      {"udt_lab_loss5_delay40/client.pcapng", 1873, 571, 14827, 43, 4, 4, 6, 1429662197},
  };
  return caps;
}

}  // namespace

TEST_CASE("udt4 decodes every field as Wireshark's built-in udt does, on the UDT4 lab captures", "[udt]") {
  for (const Capture& want : captures()) {
    SECTION(want.path) {
      const std::string cap = dataDir(want.path);
      // The built-in dissector through its handshake heuristic, and through
      // Decode As; ours through its heuristic and its port preference.
      for (const bool byPort : {false, true}) {
        INFO((byPort ? "-d udp.port==19000,udt / -o udt4.ports:19000" : "heuristics"));
        std::vector<std::string> b = {TSHARK_EXECUTABLE, "-n", "-r", cap, "-T", "fields"};
        std::vector<std::string> o = {RUDPSCOPE_CLI, "decode", cap};
        if (byPort) {
          b.insert(b.end(), {"-d", "udp.port==19000,udt"});
          o.insert(o.end(), {"-o", "udt4.ports:19000"});
        }
        const auto builtin = linesOf(b, "udt.");
        const auto ours = linesOf(o, "udt4.");
        REQUIRE(builtin.size() == want.frames);
        REQUIRE(ours.size() == builtin.size());
        size_t mismatches = 0;
        for (size_t i = 0; i < builtin.size(); ++i) {
          if (ours[i] == builtin[i]) continue;
          if (++mismatches <= 5) {
            INFO("frame " << i + 1 << "\n built-in: " << builtin[i] << "\n udt4:     " << ours[i]);
            CHECK(ours[i] == builtin[i]);
          }
        }
        CHECK(mismatches == 0);
        // What the comparison covered (the built-in dissector's figures):
        // 26 fields of every frame, this many with a value.
        CHECK(filled(builtin) == want.filled);
        CHECK(count(builtin, "iscontrol", "1") == want.controls);
        CHECK(count(builtin, "type", "0x00000003") == want.naks);
        CHECK(count(builtin, "type", "0x00000000") == want.handshakes);
        CHECK(count(builtin, "hs.isn", std::to_string(want.isn)) == want.handshakes);
      }
    }
  }
}

TEST_CASE("udt4's NAK loss list fields are the NAKs' bytes and the built-in dissector's expert texts",
          "[udt]") {
  for (const Capture& want : captures()) {
    SECTION(want.path) {
      const std::string cap = dataDir(want.path);
      // The bytes and expert texts from the built-in dissector.
      const auto b = run({TSHARK_EXECUTABLE, "-n", "-r", cap, "-Y", "udt.type == 3", "-T", "fields", "-e",
                          "frame.number", "-e", "udp.payload", "-e", "_ws.expert.message"});
      REQUIRE(b.status == 0);
      // Ours, every frame (rudpscope's decode).
      const auto rows =
          decode(cap, {"frame.number", "udt4.nak.first", "udt4.nak.range", "udt4.nak.last", "udt4.nak.lost"});
      REQUIRE(rows.size() == want.frames);
      size_t naks = 0, entries = 0, ranges = 0;
      for (const auto& line : splitLines(b.out)) {
        const auto c = split(line, '\t');
        REQUIRE(c.size() == 3);
        const size_t frame = std::stoul(c[0]);
        const auto list = lossList(c[1]);
        std::string first, range, last, texts;
        uint64_t lost = 0;
        for (const auto& e : list) {
          first += (first.empty() ? "" : ",") + std::to_string(e.first);
          range += std::string(range.empty() ? "" : ",") + (e.range ? "1" : "0");
          if (e.range) last += (last.empty() ? "" : ",") + std::to_string(e.last);
          texts += (texts.empty() ? "" : ",") + expertText(e, want.isn);
          lost += e.range ? uint64_t(e.last - e.first) + 1 : 1;
          ++entries;
          ranges += e.range;
        }
        INFO("frame " << frame);
        CHECK(c[2] == texts);  // the built-in dissector's view of the bytes
        const auto& r = rows.at(frame - 1);
        CHECK(r[1] == first);
        CHECK(r[2] == range);
        CHECK(r[3] == last);
        CHECK(r[4] == std::to_string(lost));
        ++naks;
      }
      CHECK(naks == want.naks);
      CHECK(entries == want.naks);  // libudt sent one entry per NAK here
      CHECK(ranges == want.nakRanges);
      // tshark running udt.lua prints the built-in dissector's expert texts.
      auto argv = tsharkWithUdtLua();
      argv.insert(argv.end(), {"-r", cap, "-Y", "udt4.type == 3", "-T", "fields", "-e", "frame.number", "-e",
                               "udp.payload", "-e", "_ws.expert.message"});
      const auto o = run(argv);
      REQUIRE(o.status == 0);
      CHECK(o.out == b.out);
    }
  }
}

TEST_CASE("rudpscope's Lua host decodes udt.lua exactly as tshark does, on the UDT4 lab captures", "[udt]") {
  const auto fields = udt4Fields();
  REQUIRE(fields.size() == 37);
  for (const Capture& want : captures()) {
    SECTION(want.path) {
      const std::string cap = dataDir(want.path);
      CHECK(rudp::test::compareWithTshark(cap, fields) == want.frames);
      CHECK(rudp::test::compareWithTshark(cap, fields, {"udt4.ports:19000"}) == want.frames);
      // The summary lines (Protocol "UDT" and udt.lua's Info column).
      auto argv = tsharkWithUdtLua();
      argv.insert(argv.end(), {"-r", cap});
      const auto t = run(argv);
      const auto o = run({RUDPSCOPE_CLI, "decode", cap});
      REQUIRE(t.status == 0);
      REQUIRE(o.status == 0);
      CHECK(o.out == t.out);
      CHECK(rudp::test::occurrences(o.out, " UDT ") == want.frames);
      CHECK(rudp::test::occurrences(o.out, " ACK light next=") == want.lightAcks);
    }
  }
}

namespace {

const tg::Ip4 kClient = {10, 0, 0, 1}, kServer = {10, 0, 0, 2};

tg::Bytes frame(const tg::Ip4& src, const tg::Ip4& dst, uint16_t sport, uint16_t dport,
                const tg::Bytes& payload) {
  return tg::ethernet(tg::Mac{2, 0, 0, 0, 0, 2}, tg::Mac{2, 0, 0, 0, 0, 1},
                      tg::ipv4(src, dst, 17, tg::udp(src, dst, sport, dport, payload)));
}

tg::Bytes words(const std::vector<uint32_t>& ws) {
  tg::Bytes b;
  for (uint32_t w : ws) tg::put32(b, w);
  return b;
}

tg::Bytes control(uint16_t type, uint32_t info, const std::vector<uint32_t>& body) {
  std::vector<uint32_t> ws = {0x80000000u | uint32_t(type) << 16, info, 5000, 0x00abcdef};
  ws.insert(ws.end(), body.begin(), body.end());
  return words(ws);
}

tg::Bytes data(uint32_t seq, uint32_t msgWord, size_t payload) {
  tg::Bytes b = words({seq, msgWord, 4000, 0x00123456});
  tg::append(b, tg::pattern(payload, 3));
  return b;
}

}  // namespace

// What the lab captures do not hold: every control type, every ACK size,
// NAKs of several entries, a cut loss list; and the heuristic leaving a pair
// without a handshake alone.
TEST_CASE("udt4 decodes every UDT4 packet kind, its own fields and Info column included", "[udt]") {
  rudp::test::TempDir dir("udt-kinds");
  const uint32_t isn = 1000;
  const std::vector<tg::Bytes> packets = {
      control(0, 0, {4, 2, isn, 1500, 8192, 1, 0x1234, 0, 0x0100000a, 0, 0, 0}),  // 1 handshake
      data(isn, 0x80000000u | 0x20000000u | 5, 10),                               // 2 first, in order
      data(isn + 1, 5, 0),                                                        // 3 middle, unordered
      data(isn + 2, 0x40000000u | 0x20000000u | 5, 3),                            // 4 last
      control(2, 0, {isn + 3}),                                                   // 5 light ACK
      control(2, 3, {isn + 3, 5000, 2500, 100}),                                  // 6 16-byte ACK
      control(2, 4, {isn + 3, 5100, 2400, 99, 250, 1000}),                        // 7 24-byte ACK
      control(3, 0, {0x80000000u | (isn + 3), isn + 5, isn + 7, 0x80000000u | (isn + 9), isn + 12}),  // 8 NAK
      control(6, 4, {0}),                                   // 9 ACK2
      control(4, 0, {0}),                                   // 10 delay warning
      control(7, 0xE0000007u, {isn + 20, isn + 23}),        // 11 drop request
      control(8, 4000, {0}),                                // 12 peer error
      control(1, 0, {0}),                                   // 13 keep-alive
      control(5, 0, {0}),                                   // 14 shutdown
      control(3, 0, {isn + 30, 0x80000000u | (isn + 40)}),  // 15 NAK, cut range
      control(0x7fff, 9, {0}),                              // 16 user defined
  };
  tg::PcapBuilder pcap(1);
  int64_t t = 1'000'000;
  for (size_t i = 0; i < packets.size(); ++i) {
    const bool fromClient = i % 2 == 0;
    pcap.packet(t += 1000, fromClient ? frame(kClient, kServer, 40000, 9000, packets[i])
                                      : frame(kServer, kClient, 9000, 40000, packets[i]));
  }
  // 17: the same data packet on a pair no handshake claimed.
  pcap.packet(t += 1000, frame(kClient, kServer, 40001, 9001, packets[1]));
  const std::string cap = dir / "kinds.pcap";
  tg::writeFile(cap, pcap.bytes());

  SECTION("the built-in dissector's fields") {
    const auto builtin = linesOf({TSHARK_EXECUTABLE, "-n", "-r", cap, "-T", "fields"}, "udt.");
    const auto ours = linesOf({RUDPSCOPE_CLI, "decode", cap}, "udt4.");
    REQUIRE(builtin.size() == 17);
    CHECK(ours == builtin);
    CHECK(filled(builtin) == 109);  // 14 handshake, 8 per data packet, 6, 9 and 11 per ACK, 5 other
  }
  SECTION("our own fields") {
    const std::vector<std::string> fields = {
        "frame.number",    "udt4.msg.first", "udt4.msg.order",  "udt4.payload.length", "udt4.ack.light",
        "udt4.nak.first",  "udt4.nak.range", "udt4.nak.last",   "udt4.nak.lost",       "udt4.drop.msgno",
        "udt4.drop.first", "udt4.drop.last", "udt4.error.code", "udt4.addinfo"};
    const Rows rows = decode(cap, fields);
    const Rows expected = {
        {"1", "", "", "", "", "", "", "", "", "", "", "", "", "0"},
        {"2", "1", "1", "10", "", "", "", "", "", "", "", "", "", ""},
        {"3", "0", "0", "0", "", "", "", "", "", "", "", "", "", ""},
        {"4", "0", "1", "3", "", "", "", "", "", "", "", "", "", ""},
        {"5", "", "", "", "1", "", "", "", "", "", "", "", "", ""},
        {"6", "", "", "", "0", "", "", "", "", "", "", "", "", ""},
        {"7", "", "", "", "0", "", "", "", "", "", "", "", "", ""},
        {"8", "", "", "", "", "1003,1007,1009", "1,0,1", "1005,1012", "8", "", "", "", "", "0"},
        {"9", "", "", "", "", "", "", "", "", "", "", "", "", ""},
        {"10", "", "", "", "", "", "", "", "", "", "", "", "", "0"},
        {"11", "", "", "", "", "", "", "", "", "7", "1020", "1023", "", "3758096391"},
        {"12", "", "", "", "", "", "", "", "", "", "", "", "4000", "4000"},
        {"13", "", "", "", "", "", "", "", "", "", "", "", "", "0"},
        {"14", "", "", "", "", "", "", "", "", "", "", "", "", "0"},
        {"15", "", "", "", "", "1030", "0", "", "1", "", "", "", "", "0"},
        {"16", "", "", "", "", "", "", "", "", "", "", "", "", "9"},
        {"17", "", "", "", "", "", "", "", "", "", "", "", "", ""},
    };
    CHECK(rows == expected);
    CHECK(rudp::test::compareWithTshark(cap, udt4Fields()) == 17);
  }
  SECTION("the Info column") {
    auto argv = tsharkWithUdtLua();
    argv.insert(argv.end(), {"-r", cap});
    const auto t = run(argv);
    const auto o = run({RUDPSCOPE_CLI, "decode", cap});
    REQUIRE(t.status == 0);
    REQUIRE(o.status == 0);
    CHECK(o.out == t.out);
    const std::vector<std::string> info = {
        "HANDSHAKE req=1 isn=1000 mss=1500 win=8192 id=4660",
        "DATA seq=1000 msg=5 len=10 first",
        "DATA seq=1001 msg=5 len=0 middle unordered",
        "DATA seq=1002 msg=5 len=3 last",
        "ACK light next=1003",
        "ACK 3 next=1003 rtt=5000 var=2500 buf=100",
        "ACK 4 next=1003 rtt=5100 var=2400 buf=99 rate=250 cap=1000",
        "NAK 8 lost: 1003-1005, 1007, 1009-1012",
        "ACK2 4",
        "DELAY WARNING",
        "DROP REQUEST msg=7 seq=1020-1023",
        "PEER ERROR code=4000",
        "KEEPALIVE",
        "SHUTDOWN",
        "NAK 1 lost: 1030 (truncated)",
        "CONTROL type=0x7fff",
        "40001 → 9001 Len=26",  // not claimed: plain UDP
    };
    const auto lines = splitLines(o.out);
    REQUIRE(lines.size() == info.size());
    for (size_t i = 0; i < info.size(); ++i) {
      INFO(lines[i]);
      CHECK(lines[i].size() >= info[i].size());
      CHECK(lines[i].compare(lines[i].size() - info[i].size(), std::string::npos, info[i]) == 0);
    }
  }
}

// Cut and oversized packets on a claimed pair: shown as far as they go with
// udt4.truncated, never a Lua error, the same in tshark and rudpscope.
TEST_CASE("udt4 marks cut packets malformed, without a Lua error, in tshark and rudpscope alike", "[udt]") {
  rudp::test::TempDir dir("udt-cut");
  const tg::Bytes hs = control(0, 0, {4, 2, 1000, 1500, 8192, 1, 5, 0, 0, 0, 0, 0});
  auto cut = [](tg::Bytes b, size_t n) {
    b.resize(n);
    return b;
  };
  tg::Bytes nakCutWord = control(3, 0, {0x80000005u});
  tg::append(nakCutWord, {0, 1});
  const std::vector<tg::Bytes> packets = {
      hs,                                 // 1
      {0x80, 0x00},                       // 2 under 4 bytes
      cut(control(2, 1, {}), 10),         // 3 header cut
      cut(hs, 30),                        // 4 handshake cut
      cut(control(2, 1, {1003}), 18),     // 5 ACK without its next number
      control(2, 1, {1003, 1, 2}),        // 6 28 bytes: neither light nor full
      control(2, 1, {1003, 1, 2, 3, 4}),  // 7 36 bytes
      nakCutWord,                         // 8 range word without its last, 2 stray bytes
      words({5, 6}),                      // 9 data header cut
      control(7, 1, {9}),                 // 10 drop request without its last
  };
  tg::PcapBuilder pcap(1);
  int64_t t = 1'000'000;
  for (const auto& p : packets) pcap.packet(t += 1000, frame(kClient, kServer, 40000, 9000, p));
  const std::string cap = dir / "cut.pcap";
  tg::writeFile(cap, pcap.bytes());

  CHECK(rudp::test::compareWithTshark(cap, udt4Fields()) == packets.size());
  auto argv = tsharkWithUdtLua();
  argv.insert(argv.end(), {"-r", cap, "-V"});
  const auto t2 = run(argv);
  const auto o = run({RUDPSCOPE_CLI, "decode", cap, "-V"});
  REQUIRE(t2.status == 0);
  REQUIRE(o.status == 0);
  CHECK(o.out == t2.out);
  CHECK(rudp::test::occurrences(t2.out, "Lua Error") == 0);
  CHECK(rudp::test::occurrences(t2.out,
                                "[Expert Info (Error/Malformed): UDT field past the end of the datagram]") ==
        packets.size() - 1);
}
