// Decoding facts of the committed lab captures, exact: every segment (KCP)
// and command (ENet) of every datagram, fields of known packets, and the
// per-datagram counts the libraries' own counters confirm.
#include <random>

#include "capture_files.h"
#include "kcp_enet_checks.h"

using namespace kcpenet;

namespace {
std::map<uint64_t, uint64_t> histogram(const Rows& rows, size_t col) {
  std::map<uint64_t, uint64_t> h;
  for (const auto& r : rows) ++h[num(r.at(col))];
  return h;
}

// tshark's Info column of some frames (rudpscope-cli decode prints fields only).
std::map<uint64_t, std::string> tsharkInfo(const std::string& capture, const std::string& script) {
  auto r = run({TSHARK_EXECUTABLE, "-n", "-r", capture, "-X", "lua_script:" + script, "-T", "fields", "-e",
                "frame.number", "-e", "_ws.col.Info"});
  REQUIRE(r.status == 0);
  std::map<uint64_t, std::string> info;
  for (const auto& line : splitLines(r.out)) {
    auto cols = split(line, '\t');
    if (cols.size() == 2) info[num(cols[0])] = cols[1];
  }
  return info;
}

std::string dissector(const std::string& name) {
  return (fs::path(RUDPSCOPE_SOURCE_DIR) / "dissectors" / name).string();
}
}  // namespace

TEST_CASE("KCP: every segment of every datagram, plain framing", "[kcp]") {
  const std::string dir = dataDir("kcp_loss5");
  const auto rows = decode(dir + "/client.pcap", {"frame.number", "ip.src", "kcp.framing", "kcp.segments",
                                                  "kcp.conv", "kcp.cmd", "kcp.sn", "kcp.ts", "kcp.ack.sn",
                                                  "kcp.ack.ts", "kcp.una", "kcp.len", "kcp.wnd", "kcp.frg"});
  REQUIRE(rows.size() == 1032);
  // Segments per datagram: 775 with one, 255 with two, 2 with three.
  CHECK(histogram(rows, 3) == std::map<uint64_t, uint64_t>{{1, 775}, {2, 255}, {3, 2}});
  std::map<std::string, uint64_t> segs;
  for (const auto& r : rows) {
    CHECK(r[2] == "plain");
    for (const auto& c : split(r[4], ',')) CHECK(c == "0xca7110b4");
    segs[r[1]] += split(r[5], ',').size();
    CHECK(split(r[5], ',').size() == num(r[3]));
  }
  // kcp-go's OutSegs of each end equals the segments the client's capture
  // has from it (InSegs for the server's, whose losses are behind it).
  const json cj = readJson(dir + "/client.json"), sj = readJson(dir + "/server.json");
  CHECK(segs[kClientIp] == u(cj.at("snmp"), "OutSegs"));
  CHECK(segs[kServerIp] == u(cj.at("snmp"), "InSegs"));
  CHECK(u(cj, "conv") == 0xca7110b4u);

  // Frame 1: the client's first PUSH.
  CHECK(rows[0] == std::vector<std::string>{"1", kClientIp, "plain", "1", "0xca7110b4", "81", "0", "0", "",
                                            "", "0", "69", "256", "0"});
  // Frame 2: the server's ACK of sn 0 (echoing its ts) and its own PUSH sn 0.
  CHECK(rows[1] == std::vector<std::string>{"2", kServerIp, "plain", "2", "0xca7110b4,0xca7110b4", "82,81",
                                            "0", "303", "0", "0", "1,1", "0,103", "255,255", "0,0"});
  // Frame 16: three segments, an ACK and two PUSHes.
  CHECK(rows[15] == std::vector<std::string>{"16", kClientIp, "plain", "3",
                                             "0xca7110b4,0xca7110b4,0xca7110b4", "82,81,81", "4,5", "165,165",
                                             "4", "468", "5,5,5", "0,80,102", "256,256,256", "0,0,0"});
  const auto info = tsharkInfo(dir + "/client.pcap", dissector("kcp.lua"));
  CHECK(info.at(1) == "PUSH sn=0 una=0 len=69");
  CHECK(info.at(2) == "ACK sn=0 una=1 | PUSH sn=0 una=1 len=103");
  CHECK(info.at(16) == "ACK sn=4 una=5 | PUSH sn=4 una=5 len=80 | PUSH sn=5 una=5 len=102");
}

TEST_CASE("ENet: every command of every datagram", "[enet]") {
  const std::string dir = dataDir("enet_loss5");
  const auto rows = decode(dir + "/client.pcap",
                           {"frame.number", "ip.src", "enet.header", "enet.peer_id", "enet.flags.sent_time",
                            "enet.sent_time", "enet.commands", "enet.command", "enet.cmd", "enet.channel",
                            "enet.reliable_seq", "enet.data.seq", "enet.ack.data_seq", "enet.data_length"});
  REQUIRE(rows.size() == 880);
  CHECK(histogram(rows, 6) == std::map<uint64_t, uint64_t>{{1, 594}, {2, 237}, {3, 46}, {4, 3}});
  for (const auto& r : rows) CHECK(split(r[8], ',').size() == num(r[6]));
  // Frame 1: CONNECT from the client, peer id 0xFFF (none yet), with sent time.
  CHECK(rows[0] == std::vector<std::string>{"1", kClientIp, "0x8fff", "0x0fff", "1", "19396", "1", "0x82",
                                            "2", "255", "1", "", "", ""});
  // Frame 4: the client's four commands (peer id 0, given by the server):
  // ACK of the VERIFY_CONNECT (channel 0xFF: no data seq), unreliable ch 1,
  // reliable ch 0 (data seq 1), unsequenced ch 2.
  CHECK(rows[3] == std::vector<std::string>{"4", kClientIp, "0x8000", "0x0000", "1", "19897", "4",
                                            "0x01,0x07,0x86,0x49", "1,7,6,9", "255,1,0,2", "1,0,1,0", "1", "",
                                            "57,62,94"});
  // Frame 5: the server's bare ACK of channel 0's seq 1: no sent time (2-byte header).
  CHECK(rows[4] == std::vector<std::string>{"5", kServerIp, "0x0000", "0x0000", "0", "", "1", "0x01", "1",
                                            "0", "1", "", "1", ""});
  const auto frag = decode(dir + "/client.pcap",
                           {"enet.fragment.start_seq", "enet.fragment.count", "enet.fragment.number",
                            "enet.fragment.total_length", "enet.fragment.offset", "enet.data_length"});
  // Frames 223..225: a 4096-byte reliable message in three fragments.
  CHECK(frag[222] == std::vector<std::string>{"27", "3", "0", "4096", "0", "1372"});
  CHECK(frag[223] == std::vector<std::string>{"27", "3", "1", "4096", "1372", "1372"});
  CHECK(frag[224] == std::vector<std::string>{"27", "3", "2", "4096", "2744", "1352"});
  const auto conn = decode(dir + "/client.pcap",
                           {"enet.connect.mtu", "enet.connect.window_size", "enet.connect.channel_count",
                            "enet.connect.connect_id", "enet.throttle.interval", "enet.connect.data"});
  CHECK(conn[0] == std::vector<std::string>{"1400", "65536", "3", "0x803430b2", "5000", "0"});
  CHECK(conn[1] == std::vector<std::string>{"1400", "65536", "3", "0x803430b2", "5000", ""});
  const auto info = tsharkInfo(dir + "/client.pcap", dissector("enet.lua"));
  CHECK(info.at(1) == "[sent=19396] CONNECT seq=1 id=0x803430b2");
  CHECK(info.at(4) ==
        "[sent=19897] ACK seq=1 ack=1 sent=19897 | SEND_UNRELIABLE ch=1 seq=0 useq=1 len=57 | "
        "SEND_RELIABLE ch=0 seq=1 len=62 | SEND_UNSEQUENCED ch=2 group=1 len=94");
  CHECK(info.at(5) == "ACK ch=0 seq=1 ack=1 sent=19897");
  CHECK(info.at(223) == "[sent=22439] SEND_FRAGMENT ch=0 seq=27 frag=1/3 start=27 len=1372");
  CHECK(info.at(879) == "[sent=32931] DISCONNECT seq=6");
  // Command counts the library confirms: packetsSent = every command but
  // ACKs, resends included (the DISCONNECT left after the last snapshot).
  const json cj = readJson(dir + "/client.json");
  const EnetCommands cmds = enetCommands(dir + "/client.pcap");
  const auto& mine = cmds.by_cmd.at(kClientIp);
  CHECK(allCommands(mine) - count(mine, {1, 4}) == u(cj.at("peer"), "packetsSent_final"));
  CHECK(count(mine, {8}) == 4 * 3);  // four 4 KB bursts, three fragments each, none resent here
}

TEST_CASE("KCP and ENet heuristics leave GRUDP traffic alone", "[kcp][enet]") {
  // Only kcp.lua and enet.lua loaded: nothing in the GRUDP sample is claimed.
  const std::string cap = (fs::path(RUDPSCOPE_SOURCE_DIR) / "resources" / "sample.pcap").string();
  auto r = run({RUDPSCOPE_CLI, "decode", cap, "--no-default-dissectors", "-X",
                "lua_script:" + dissector("kcp.lua"), "-X", "lua_script:" + dissector("enet.lua"), "-e",
                "kcp.conv", "-e", "enet.command"});
  REQUIRE(r.status == 0);
  const auto lines = splitLines(r.out);
  REQUIRE(lines.size() > 5000);
  for (const auto& l : lines) CHECK(l == "\t");
}

namespace {
// Datagrams per (source, framing, FEC type) of a capture; all must be KCP.
std::map<std::string, uint64_t> framings(const std::string& capture) {
  std::map<std::string, uint64_t> m;
  for (const auto& r : decode(capture, {"ip.src", "kcp.framing", "kcp.crc.good", "kcp.fec.type"})) {
    CHECK(!r[1].empty());  // every datagram claimed by kcp.lua
    if (r[1] == "crc" || r[1] == "crc+fec") CHECK(r[2] == "1");
    ++m[r[0] + " " + r[1] + (r[3].empty() ? "" : " " + r[3])];
  }
  return m;
}
}  // namespace

TEST_CASE("KCP framings of kcp-go and kcptun: nonce+CRC32, FEC data and parity shards", "[kcp]") {
  struct Run {
    const char* name;
    const char* framing;
    bool fec;
  };
  for (const Run& run_ : {Run{"kcptun_crc_loss5", "crc", false}, Run{"kcptun_crcfec_loss5", "crc+fec", true},
                          Run{"kcp_fec_loss5", "fec", true}}) {
    const std::string dir = dataDir(run_.name);
    INFO(run_.name);
    const json cj = readJson(dir + "/client.json"), sj = readJson(dir + "/server.json");
    const auto atClient = framings(dir + "/client.pcap"), atServer = framings(dir + "/server.pcap");
    const std::string f = run_.framing;
    auto get = [](const std::map<std::string, uint64_t>& m, const std::string& k) {
      auto it = m.find(k);
      return it == m.end() ? uint64_t(0) : it->second;
    };
    if (!run_.fec) {
      CHECK(atClient.size() == 2);
      CHECK(get(atClient, kClientIp + " " + f) == u(cj.at("snmp"), "OutPkts"));
      CHECK(get(atServer, kServerIp + " " + f) == u(sj.at("snmp"), "OutPkts"));
      continue;
    }
    CHECK(atClient.size() == 4);
    // Everything the sender sent is in its own capture ...
    CHECK(get(atClient, kClientIp + " " + f + " 0x00f1") + get(atClient, kClientIp + " " + f + " 0x00f2") ==
          u(cj.at("snmp"), "OutPkts"));
    CHECK(get(atServer, kServerIp + " " + f + " 0x00f1") + get(atServer, kServerIp + " " + f + " 0x00f2") ==
          u(sj.at("snmp"), "OutPkts"));
    // ... and the parity shards in the receiver's capture are the ones it counted.
    CHECK(get(atServer, kClientIp + " " + f + " 0x00f2") == u(sj.at("snmp"), "FECParityShards"));
    CHECK(get(atClient, kServerIp + " " + f + " 0x00f2") == u(cj.at("snmp"), "FECParityShards"));
  }
}

TEST_CASE("KCP: a datagram with a wrong CRC32 is shown as such on a KCP port, not claimed by the heuristic",
          "[kcp]") {
  // Copy the kcptun capture, flipping the last byte of the first frame.
  const std::string src = dataDir("kcptun_crc_loss5") + "/client.pcap";
  rudp::test::TempDir tmp("kcpcrc");
  const std::string cap = tmp / "bad_crc.pcap";
  {
    std::ifstream in(src, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    REQUIRE(bytes.size() > 24 + 16);
    uint32_t incl = 0;
    for (int i = 3; i >= 0; --i) incl = incl * 256 + uint8_t(bytes[24 + 8 + i]);  // little-endian pcap
    bytes[24 + 16 + incl - 1] ^= 0x5a;
    std::ofstream(cap, std::ios::binary) << bytes;
  }
  const std::vector<std::string> fields = {"kcp.framing", "kcp.crc.good", "kcp.conv"};
  auto heur = decode(cap, fields);
  CHECK(heur[0] == std::vector<std::string>{"", "", ""});
  CHECK(heur[1][1] == "1");
  for (const char* framing : {"kcp.framing:auto", "kcp.framing:crc"}) {
    auto r = run({RUDPSCOPE_CLI, "decode", cap, "-o", "kcp.ports:29901", "-o", framing, "-e", "kcp.framing",
                  "-e", "kcp.crc.good", "-e", "kcp.segments"});
    REQUIRE(r.status == 0);
    CHECK(splitLines(r.out)[0] == "crc\t0\t1");
  }
  // tshark says the same.
  auto t = run({TSHARK_EXECUTABLE, "-n", "-r", cap, "-X", "lua_script:" + dissector("kcp.lua"), "-o",
                "kcp.ports:29901", "-o", "kcp.framing:crc", "-T", "fields", "-e", "kcp.framing", "-e",
                "kcp.crc.good", "-e", "_ws.expert.message"});
  REQUIRE(t.status == 0);
  CHECK(splitLines(t.out)[0] == "crc\t0\tCRC32 does not match");
}

TEST_CASE("KCP and ENet heuristics claim no random datagram", "[kcp][enet]") {
  // 20000 random UDP payloads (raw IPv4 pcap), a third with a KCP command
  // byte at offset 4, a third with an ENet-like header: nothing is claimed.
  rudp::test::TempDir tmp("kcprandom");
  const std::string cap = tmp / "random.pcap";
  {
    std::mt19937 rng(1);
    auto rnd = [&](uint32_t lo, uint32_t hi) { return lo + rng() % (hi - lo + 1); };
    rudp::testgen::PcapBuilder pcap(101, 65535);  // raw IPv4, a datagram a second
    const rudp::testgen::Ip4 src{10, 0, 0, 1}, dst{10, 0, 0, 2};
    for (uint32_t i = 0; i < 20000; ++i) {
      const uint32_t n = (rng() & 1) ? rnd(0, 64) : rnd(0, 1400);
      rudp::testgen::Bytes pay(n);
      for (auto& c : pay) c = uint8_t(rng());
      if (i % 3 == 0 && n >= 8) pay[4] = uint8_t(81 + rnd(0, 3));
      if (i % 3 == 1 && n >= 8) pay[0] = uint8_t((rng() & 1) ? 0x80 : 0x00);
      const uint16_t sp = uint16_t(rnd(1024, 65535)), dp = uint16_t(rnd(1024, 65535));
      pcap.packet(int64_t(i) * 1'000'000,
                  rudp::testgen::ipv4(src, dst, 17, rudp::testgen::udp(src, dst, sp, dp, pay), uint16_t(i)));
    }
    rudp::testgen::writeFile(cap, pcap.bytes());
  }
  auto r = run({RUDPSCOPE_CLI, "decode", cap, "--no-default-dissectors", "-X",
                "lua_script:" + dissector("kcp.lua"), "-X", "lua_script:" + dissector("enet.lua"), "-e",
                "kcp.conv", "-e", "enet.command"});
  REQUIRE(r.status == 0);
  const auto lines = splitLines(r.out);
  REQUIRE(lines.size() == 20000);
  size_t claimed = 0;
  for (const auto& l : lines) claimed += l != "\t";
  CHECK(claimed == 0);
  auto t =
      run({TSHARK_EXECUTABLE, "-n", "-r", cap, "-X", "lua_script:" + dissector("kcp.lua"), "-X",
           "lua_script:" + dissector("enet.lua"), "-T", "fields", "-e", "kcp.conv", "-e", "enet.command"});
  REQUIRE(t.status == 0);
  CHECK(t.out == r.out);
  // Forced onto every port, the garbage is decoded (and flagged malformed)
  // the same way by both, without a Lua error.
  const std::vector<std::string> fields = {"kcp.framing",      "kcp.segments",  "kcp.cmd",  "kcp.len",
                                           "kcp.data",         "enet.commands", "enet.cmd", "enet.channel",
                                           "enet.data_length", "enet.data"};
  for (const char* pref : {"kcp.ports:1024-65535", "enet.ports:1024-65535"}) {
    std::vector<std::string> ours = {RUDPSCOPE_CLI, "decode",
                                     cap,           "--no-default-dissectors",
                                     "-X",          "lua_script:" + dissector("kcp.lua"),
                                     "-X",          "lua_script:" + dissector("enet.lua"),
                                     "-o",          pref};
    std::vector<std::string> ts = {TSHARK_EXECUTABLE,
                                   "-n",
                                   "-r",
                                   cap,
                                   "-X",
                                   "lua_script:" + dissector("kcp.lua"),
                                   "-X",
                                   "lua_script:" + dissector("enet.lua"),
                                   "-o",
                                   pref,
                                   "-T",
                                   "fields"};
    for (const auto& f : fields) {
      ours.push_back("-e");
      ours.push_back(f);
      ts.push_back("-e");
      ts.push_back(f);
    }
    auto o = run(ours);
    auto w = run(ts);
    REQUIRE(o.status == 0);
    REQUIRE(w.status == 0);
    CHECK(o.out == w.out);
    auto e =
        run({TSHARK_EXECUTABLE, "-n", "-r", cap, "-X", "lua_script:" + dissector("kcp.lua"), "-X",
             "lua_script:" + dissector("enet.lua"), "-o", pref, "-T", "fields", "-e", "_ws.expert.message"});
    CHECK(e.out.find("Lua Error") == std::string::npos);
  }
}
