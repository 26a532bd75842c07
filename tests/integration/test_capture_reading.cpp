// Real-world captures (issue 12, parts 1 and 2): multi-interface pcapng,
// gzip and zstd, Solaris snoop, damaged records, link types from Linux NFLOG and macOS PKTAP,
// and link types not decoded. Each file is built here byte by byte; the
// expectations come from tshark reading the same file and from the packets
// themselves (how many were written, with which addresses).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "capture/capture_reader.h"
#include "capture_checks.h"
#include "capture_files.h"
#include "cli_checks.h"
#include "process.h"
#include "tshark_compare.h"

using namespace rudp;
using namespace rudp::test;
using namespace rudp::testgen;
namespace fs = std::filesystem;

namespace {

const Ip4 kA{10, 0, 0, 1}, kB{10, 0, 0, 2}, kC{192, 168, 7, 9};
const Mac kMacA{2, 0, 0, 0, 0, 1}, kMacB{2, 0, 0, 0, 0, 2};
const std::vector<std::string> kFields = {"frame.number", "frame.time_epoch", "frame.len",   "frame.cap_len",
                                          "ip.src",       "ip.dst",           "udp.srcport", "udp.dstport",
                                          "tcp.seq",      "tcp.len",          "grudp.seq"};

// A GRUDP data packet from a to b with sequence number `seq`.
Bytes grudpIp(const Ip4& a, const Ip4& b, uint32_t seq) {
  Grudp g;
  g.type = kData;
  g.flags = kReliable;
  g.conn_id = 0x51;
  g.seq = seq;
  g.ts = seq * 16;
  g.payload = pattern(24 + seq % 5, uint8_t(seq));
  return ipv4(a, b, 17, udp(a, b, 50000, 7777, grudp(g)), uint16_t(0x100 + seq));
}

ProcessResult cli(std::vector<std::string> args) {
  args.insert(args.begin(), RUDPSCOPE_CLI);
  return run(args);
}

// tshark's field lines for `capture`, with its exit status.
ProcessResult tsharkFields(const std::string& capture, const std::vector<std::string>& fields) {
  std::vector<std::string> argv = {TSHARK_EXECUTABLE, "-n", "-r", capture, "-T", "fields"};
  for (const auto& f : fields) argv.insert(argv.end(), {"-e", f});
  return run(argv);
}

std::vector<std::string> decodeArgs(const std::string& capture, const std::vector<std::string>& fields) {
  std::vector<std::string> argv = {"decode", capture};
  for (const auto& f : fields) argv.insert(argv.end(), {"-e", f});
  return argv;
}

// Three interfaces in the first section (Ethernet with a 65535-byte snap
// length and microseconds, Linux cooked with 262144 and nanoseconds, raw IP
// with no limit and milliseconds plus a time offset), a statistics block
// between packets, a custom block after them (Wireshark counts it as frame
// 11), then a second section with one interface of its own. 12 packets, 11
// of them GRUDP from a to b.
Bytes multiInterfacePcapng() {
  PcapngBuilder ng;
  ng.interface(1, 65535, 6).interface(113, 262144, 9).interface(101, 0, 3, 3600);
  const uint64_t t0us = 1'700'000'000'000'000;
  for (uint32_t i = 0; i < 9; ++i) {
    const Bytes ip = grudpIp(kA, kB, i);
    switch (i % 3) {
      case 0: ng.packet(0, t0us + i * 1000, ethernet(kMacB, kMacA, ip)); break;
      case 1: ng.packet(1, (t0us + i * 1000) * 1000 + 7, sll(4, kMacA, ip)); break;
      default: ng.packet(2, (t0us + i * 1000) / 1000 - 3'600'000, ip); break;
    }
    if (i == 4) ng.statistics();
  }
  ng.packet(0, t0us + 9500,
            ethernet(kMacB, kMacA, ipv4(kC, kB, 6, tcp(kC, kB, 40000, 443, 1000, 0, kSyn, 64240, {}, {}))));
  ng.custom();
  ng.section().interface(1, 262144, 9);
  for (uint32_t i = 9; i < 11; ++i)
    ng.packet(0, (t0us + i * 1000) * 1000, ethernet(kMacB, kMacA, grudpIp(kA, kB, i)));
  return ng.bytes();
}

// A snoop file (RFC 1761, big-endian) of `frames` 1.5 ms apart on datalink
// `datalink` (4: Ethernet); each record padded to 4 bytes, each frame cut to
// `snap` bytes when longer. Returns the file and each record's offset.
struct Snoop {
  Bytes bytes;
  std::vector<size_t> records;
};
Snoop snoopFile(const std::vector<Bytes>& frames, uint32_t datalink = 4, size_t snap = 1 << 20) {
  Snoop s;
  s.bytes = {'s', 'n', 'o', 'o', 'p', 0, 0, 0};
  put32(s.bytes, 2);
  put32(s.bytes, datalink);
  for (size_t i = 0; i < frames.size(); ++i) {
    const size_t included = std::min(snap, frames[i].size());
    const size_t record = (24 + included + 3) / 4 * 4;
    s.records.push_back(s.bytes.size());
    for (const size_t v : {frames[i].size(), included, record, size_t(0), size_t(1'700'000'000)})
      put32(s.bytes, uint32_t(v));
    put32(s.bytes, uint32_t(i * 1500));
    s.bytes.insert(s.bytes.end(), frames[i].begin(), frames[i].begin() + long(included));
    s.bytes.resize(s.records.back() + record, 0);
  }
  return s;
}

std::vector<Bytes> grudpFrames(uint32_t n) {
  std::vector<Bytes> out;
  for (uint32_t i = 0; i < n; ++i) out.push_back(ethernet(kMacB, kMacA, grudpIp(kA, kB, i)));
  return out;
}

}  // namespace

TEST_CASE("Solaris snoop files, plain and gzip-compressed, read as tshark reads them") {
  TempDir dir("snoop");
  const std::string plain = dir / "game.snoop";
  writeFile(plain, snoopFile(grudpFrames(7), 4, 60).bytes);  // frames of 82 to 86 bytes cut to 60
  REQUIRE(run({"gzip", "-k", "-9", plain}).status == 0);
  for (const std::string& f : {plain, plain + ".gz"}) {
    INFO(f);
    CHECK(compareWithTshark(f, kFields) == 7);
    const nlohmann::json j = analyzeJson(f, f + ".sqlite");
    CHECK(j["capture"]["packets"] == 7);
    CHECK(j["capture"]["format"] == (f == plain ? "snoop" : "snoop, gzip"));
    CHECK(j["capture"]["link_type_name"] == "EN10MB");
    REQUIRE(j["connections"].size() == 1);
    CHECK(j["connections"][0]["protocol"] == "grudp");
    CHECK(packetsOf(j["connections"][0]) == 7);
  }
}

TEST_CASE("a snoop file cut off, damaged or of another link says so in one line") {
  TempDir dir("snoop-bad");
  const Snoop s = snoopFile(grudpFrames(5));
  SECTION("cut off in frame 4: the 3 before it and a warning") {
    const std::string f = dir / "cut.snoop";
    writeFile(f, Bytes(s.bytes.begin(), s.bytes.begin() + long(s.records[3] + 30)));
    const ProcessResult t = tsharkFields(f, {"frame.number", "ip.src"});
    const ProcessResult o = cli(decodeArgs(f, {"frame.number", "ip.src"}));
    CHECK(o.status == 0);
    CHECK(o.out == t.out);
    CHECK(splitLines(o.out).size() == 3);
    const auto lines = splitLines(o.err);
    REQUIRE(lines.size() == 1);
    CHECK_THAT(lines[0], Catch::Contains("is cut off in the middle of a packet after frame 3"));
  }
  SECTION("frame 4's record length damaged: an error, as in tshark") {
    Bytes b = s.bytes;
    for (size_t k = 0; k < 4; ++k) b[s.records[3] + 8 + k] = k == 0 ? 0x7f : 0xff;
    const std::string f = dir / "damaged.snoop";
    writeFile(f, b);
    const ProcessResult t = tsharkFields(f, {"frame.number"});
    CHECK(t.status == 2);
    CHECK(splitLines(t.out).size() == 3);
    requireOneLineError(cli(decodeArgs(f, {"frame.number"})),
                        "has a damaged record after frame 3 (record length");
  }
  SECTION("token ring (datalink 2)") {
    const std::string f = dir / "token-ring.snoop";
    writeFile(f, snoopFile(grudpFrames(2), 2).bytes);
    requireOneLineError(cli(decodeArgs(f, {"frame.number"})),
                        "cannot read '" + f + "': snoop datalink type 2 is not supported (only Ethernet is)");
  }
}

TEST_CASE(
    "a pcapng with interfaces of different link types and snap lengths reads every frame as tshark does") {
  TempDir dir("multi-link");
  const std::string f = dir / "multi.pcapng";
  writeFile(f, multiInterfacePcapng());

  // tshark prints a line for the custom block (frame 11, no packet in it); rudpscope numbers frames
  // the same way but has no packet to print there.
  ProcessResult ours =
      cli(decodeArgs(f, {"frame.number", "frame.time_epoch", "frame.len", "ip.src", "tcp.srcport"}));
  ProcessResult theirs =
      tsharkFields(f, {"frame.number", "frame.time_epoch", "frame.len", "ip.src", "tcp.srcport"});
  std::vector<std::string> expected = splitLines(theirs.out);
  REQUIRE(expected.size() == 13);
  CHECK(expected[10] == "11\t\t4\t\t");
  expected.erase(expected.begin() + 10);
  CHECK(ours.status == 0);
  CHECK(ours.err.empty());
  CHECK(splitLines(ours.out) == expected);

  auto reader = CaptureReader::open(f);
  std::vector<int> linkTypes;
  RawPacket p;
  while (reader->next(p)) linkTypes.push_back(p.link_type);
  CHECK(linkTypes == std::vector<int>{1, 113, 12, 1, 113, 12, 1, 113, 12, 1, 1, 1});
  CHECK(p.frame == 13);
  CHECK(reader->linkTypeName() == "EN10MB, LINUX_SLL, RAW");
  CHECK(reader->warning().empty());

  const nlohmann::json j = analyzeJson(f, dir / "multi.sqlite");
  CHECK(j["capture"]["packets"] == 12);
  REQUIRE(j["connections"].size() == 2);  // the GRUDP one and the TCP SYN
  size_t grudpPackets = 0;
  for (const auto& c : j["connections"])
    if (c["protocol"] == "grudp") grudpPackets = packetsOf(c);
  CHECK(grudpPackets == 11);
}

TEST_CASE("every field of a multi-link pcapng without custom blocks equals tshark's") {
  TempDir dir("multi-link-fields");
  PcapngBuilder ng;
  ng.interface(1, 65535, 6).interface(113, 262144, 9).interface(101, 0, 0x80 | 20);
  for (uint32_t i = 0; i < 12; ++i) {
    const Bytes ip = grudpIp(kA, kB, i);
    const uint64_t us = 1'700'000'000'000'000 + i * 1500;
    if (i % 3 == 0) ng.packet(0, us, ethernet(kMacB, kMacA, ip));
    if (i % 3 == 1) ng.packet(1, us * 1000 + 11, sll(0, kMacA, ip));
    if (i % 3 == 2)
      ng.packet(2, uint64_t(1'700'000'000 + i) << 20, ip);  // 2^-20 s units: whole seconds, exact
  }
  const std::string f = dir / "fields.pcapng";
  writeFile(f, ng.bytes());
  CHECK(compareWithTshark(f, allDecodeFields()) == 12);
}

TEST_CASE("a simple packet block has interface 0's link type and no time") {
  TempDir dir("spb");
  PcapngBuilder ng;
  ng.interface(1, 80).simplePacket(ethernet(kMacB, kMacA, grudpIp(kA, kB, 1)));
  const std::string f = dir / "spb.pcapng";
  writeFile(f, ng.bytes());
  auto reader = CaptureReader::open(f);
  RawPacket p;
  REQUIRE(reader->next(p));
  CHECK(p.link_type == 1);
  CHECK(p.ts_ns == 0);
  CHECK(p.caplen == 80);  // the interface's snap length
  CHECK(p.origlen == 99);
  CHECK_FALSE(reader->next(p));
  CHECK(reader->warning().empty());
}

TEST_CASE("frames exported from a multi-link pcapng keep their link types") {
  TempDir dir("multi-link-export");
  const std::string f = dir / "multi.pcapng", out = dir / "out.pcapng";
  writeFile(f, multiInterfacePcapng());
  const ProcessResult r = cli({"wireshark", "open", f, "--frames", "2-6", "-w", out, "--dry-run"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  const std::vector<std::string> fields = {"frame.time_epoch", "frame.encap_type", "ip.src", "udp.srcport"};
  const auto whole = splitLines(tsharkFields(f, fields).out);
  const auto exported = splitLines(tsharkFields(out, fields).out);
  REQUIRE(whole.size() == 13);
  CHECK(exported == std::vector<std::string>(whole.begin() + 1, whole.begin() + 6));
}

TEST_CASE("gzip- and zstd-compressed captures read exactly as the plain file") {
  TempDir dir("compressed");
  for (const std::string name : {"eth.pcap", "eth.pcapng", "eth_nsec.pcapng"}) {
    const std::string plain = dir / name;
    fs::copy_file(fs::path(RUDPSCOPE_SOURCE_DIR) / "tests/data/link" / name, plain);
    REQUIRE(run({"gzip", "-k", "-9", plain}).status == 0);
    REQUIRE(run({"zstd", "-q", "-k", plain}).status == 0);
    const ProcessResult expected = cli(decodeArgs(plain, kFields));
    REQUIRE(expected.status == 0);
    REQUIRE(splitLines(expected.out).size() > 10);
    for (const std::string& packed : {plain + ".gz", plain + ".zst"}) {
      INFO(packed);
      const ProcessResult got = cli(decodeArgs(packed, kFields));
      CHECK(got.status == 0);
      CHECK(got.err.empty());
      CHECK(got.out == expected.out);
      const nlohmann::json j = analyzeJson(packed, packed + ".sqlite");
      CHECK(j["capture"]["packets"] == splitLines(expected.out).size());
      CHECK(std::string(j["capture"]["format"]).find(packed.ends_with(".gz") ? ", gzip" : ", zstd") !=
            std::string::npos);
    }
    CHECK(compareWithTshark(plain + ".gz", kFields) ==
          splitLines(expected.out).size());  // tshark 4.0 reads gzip
  }
}

TEST_CASE("a compressed capture cut off or damaged says so in one line") {
  TempDir dir("compressed-bad");
  const std::string plain = dir / "eth.pcapng";
  fs::copy_file(fs::path(RUDPSCOPE_SOURCE_DIR) / "tests/data/link/eth.pcapng", plain);
  REQUIRE(run({"gzip", "-k", "-9", plain}).status == 0);
  std::ifstream in(plain + ".gz", std::ios::binary);
  Bytes gz((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());

  SECTION("cut off: the frames before the cut, as tshark reads them, and a warning") {
    const std::string cut = dir / "cut.pcapng.gz";
    writeFile(cut, Bytes(gz.begin(), gz.begin() + long(gz.size() * 2 / 3)));
    const ProcessResult t = tsharkFields(cut, {"frame.number", "ip.src"});
    const ProcessResult o = cli(decodeArgs(cut, {"frame.number", "ip.src"}));
    INFO(o.err);
    CHECK(o.status == 0);
    CHECK(o.out == t.out);
    CHECK(splitLines(o.out).size() > 0);
    const auto lines = splitLines(o.err);
    REQUIRE(lines.size() == 1);
    CHECK_THAT(lines[0], Catch::Contains("is cut off in the middle of a packet after frame " +
                                         std::to_string(splitLines(t.out).size())));
  }
  SECTION("damaged: an error, as in tshark") {
    const std::string bad = dir / "bad.pcapng.gz";
    for (size_t i = gz.size() / 3; i < gz.size() / 3 + 64; ++i) gz[i] ^= 0x5a;
    writeFile(bad, gz);
    CHECK(tsharkFields(bad, {"frame.number"}).status == 2);
    const ProcessResult o = cli(decodeArgs(bad, {"frame.number"}));
    // The damage is met while the first block of output is decompressed.
    requireOneLineError(o, "gzip data is damaged: ");
  }
}

TEST_CASE("a damaged record in the middle is an error unless --keep-damaged") {
  TempDir dir("damaged");
  PcapBuilder pcap(1);
  for (uint32_t i = 0; i < 6; ++i)
    pcap.mark().packet(1'700'000'000'000'000 + i * 1000, ethernet(kMacB, kMacA, grudpIp(kA, kB, i)));
  const size_t at = pcap.recordOffset(3) + 8;  // frame 4's captured length
  for (int k = 0; k < 4; ++k) pcap.bytes()[at + k] = k == 3 ? 0x7f : 0xff;
  const std::string f = dir / "damaged.pcap", db = dir / "damaged.sqlite";
  writeFile(f, pcap.bytes());

  const ProcessResult t = tsharkFields(f, {"frame.number", "ip.src", "udp.srcport"});
  CHECK(t.status == 2);  // tshark: "appears to be damaged or corrupt"
  CHECK(splitLines(t.out).size() == 3);

  const ProcessResult decode = cli(decodeArgs(f, {"frame.number", "ip.src", "udp.srcport"}));
  CHECK(decode.out == t.out);
  requireOneLineError(decode, "'" + f + "' has a damaged record after frame 3 (");
  CHECK_THAT(decode.err, Catch::Contains("--keep-damaged uses the 3 frames before it"));

  requireOneLineError(cli({"analyze", f, "--db", db}), "has a damaged record after frame 3");
  CHECK_FALSE(fs::exists(db));

  const ProcessResult kept = cli({"analyze", f, "--db", db, "--json", "-q", "--keep-damaged"});
  CHECK(kept.status == 0);
  const auto lines = splitLines(kept.err);
  REQUIRE(lines.size() == 1);
  CHECK_THAT(lines[0],
             Catch::StartsWith("rudpscope-cli: warning: '" + f + "' has a damaged record after frame 3"));
  const nlohmann::json j = nlohmann::json::parse(kept.out);
  CHECK(j["capture"]["packets"] == 3);

  SECTION("in pcapng too") {
    PcapngBuilder ng;
    ng.interface(1, 262144);
    for (uint32_t i = 0; i < 5; ++i)
      ng.packet(0, 1'700'000'000'000'000 + i, ethernet(kMacB, kMacA, grudpIp(kA, kB, i)));
    Bytes b = ng.bytes();
    // The fourth block after the section header and the interface: its length.
    size_t off = 0;
    for (int block = 0; block < 5; ++block) off += size_t(b[off + 4]) | size_t(b[off + 5]) << 8;
    b[off + 4] = 0xf0;
    b[off + 5] = b[off + 6] = b[off + 7] = 0xff;
    const std::string g = dir / "damaged.pcapng";
    writeFile(g, b);
    CHECK(tsharkFields(g, {"frame.number"}).status == 2);
    CHECK(splitLines(tsharkFields(g, {"frame.number"}).out).size() == 3);
    requireOneLineError(cli(decodeArgs(g, {"frame.number"})),
                        "has a damaged record after frame 3 (block length");
  }
}

TEST_CASE("NFLOG and PKTAP frames decode as tshark decodes them") {
  TempDir dir("nflog-pktap");
  PcapBuilder nf(239), pk(258);
  for (uint32_t i = 0; i < 4; ++i) {
    const int64_t ts = 1'700'000'000'000'000 + i * 20'000;
    nf.packet(ts, nflog(grudpIp(kA, kB, i)));
    pk.packet(ts, pktap(ethernet(kMacB, kMacA, grudpIp(kA, kC, i))));
  }
  const std::string n = dir / "nflog.pcap", p = dir / "pktap.pcap";
  writeFile(n, nf.bytes());
  writeFile(p, pk.bytes());
  CHECK(compareWithTshark(n, kFields) == 4);
  CHECK(compareWithTshark(p, kFields) == 4);
  for (const std::string& f : {n, p}) {
    const nlohmann::json j = analyzeJson(f, f + ".sqlite");
    REQUIRE(j["connections"].size() == 1);
    CHECK(packetsOf(j["connections"][0]) == 4);
    CHECK(j["connections"][0]["protocol"] == "grudp");
  }
}

TEST_CASE("frames of a link type rudpscope does not decode are one line on stderr, not a silent zero") {
  TempDir dir("unsupported-link");
  PcapngBuilder ng;
  ng.interface(1, 262144).interface(242, 65535);
  for (uint32_t i = 0; i < 5; ++i) {
    const Bytes ip = grudpIp(kA, kB, i);
    if (i % 2)
      ng.packet(1, 1'700'000'000'000'000 + i, ipoib(ip));
    else
      ng.packet(0, 1'700'000'000'000'000 + i, ethernet(kMacB, kMacA, ip));
  }
  const std::string f = dir / "ipoib.pcapng";
  writeFile(f, ng.bytes());
  const ProcessResult r = cli({"analyze", f, "--db", dir / "ipoib.sqlite", "--json", "-q"});
  CHECK(r.status == 0);
  CHECK(splitLines(r.err) ==
        std::vector<std::string>{
            "rudpscope-cli: warning: '" + f +
            "': 2 of 5 frames are of link type IPOIB (242), which rudpscope does not decode; "
            "they are counted, not analysed"});
  const nlohmann::json j = nlohmann::json::parse(r.out);
  CHECK(j["capture"]["packets"] == 5);
  REQUIRE(j["connections"].size() == 1);
  CHECK(packetsOf(j["connections"][0]) == 3);
  CHECK_THAT(std::string(j["capture"]["warning"]), Catch::Contains("2 of 5 frames are of link type IPOIB"));
  const ProcessResult d = cli(decodeArgs(f, {"frame.number"}));
  CHECK(d.status == 0);
  CHECK(splitLines(d.out).size() == 5);
  CHECK(splitLines(d.err).size() == 1);
}

TEST_CASE("mergecap of an Ethernet pcapng and a Linux-cooked pcap reads whole, as tshark reads it") {
  TempDir dir("mergecap");
  const std::string merged = dir / "merged.pcapng";
  const fs::path link = fs::path(RUDPSCOPE_SOURCE_DIR) / "tests/data/link";
  REQUIRE(
      run({"mergecap", "-w", merged, (link / "eth.pcapng").string(), (link / "sll.pcap").string()}).status ==
      0);
  CHECK(compareWithTshark(merged, kFields) == 40);  // 20 frames from each
  CHECK(analyzeJson(merged, dir / "merged.sqlite")["capture"]["link_type_name"] == "EN10MB, LINUX_SLL");
}
