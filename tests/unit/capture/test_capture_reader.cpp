// CaptureReader on the committed captures: formats, byte orders, time
// precision, frame numbering, record offsets, progress.
#include <catch2/catch.hpp>

#include "capture_test_util.h"
#include "link_scenario.h"

using namespace rudp;
using namespace rudp::test;
using rudp::testgen::Link;

namespace {

struct FileCase {
  const char* name;
  Link link;
  const char* format;
  int dlt;
  const char* dltName;
  bool nano;
};

const FileCase kFiles[] = {
    {"eth.pcap", Link::Ethernet, "pcap", 1, "EN10MB", false},
    {"eth_vlan.pcap", Link::Vlan, "pcap", 1, "EN10MB", false},
    {"eth_qinq.pcap", Link::QinQ, "pcap", 1, "EN10MB", false},
    {"sll.pcap", Link::Sll, "pcap", 113, "LINUX_SLL", false},
    {"sll2.pcap", Link::Sll2, "pcap", 276, "LINUX_SLL2", false},
    {"null.pcap", Link::Null, "pcap", 0, "NULL", false},
    {"loop.pcap", Link::Loop, "pcap", 108, "LOOP", false},
    {"raw.pcap", Link::Raw, "pcap", 12, "RAW", false},  // stored as LINKTYPE_RAW 101
    {"eth_nsec.pcap", Link::Ethernet, "pcap-nsec", 1, "EN10MB", true},
    {"eth_swapped.pcap", Link::Ethernet, "pcap", 1, "EN10MB", false},
    {"eth.pcapng", Link::Ethernet, "pcapng", 1, "EN10MB", false},
    {"eth_nsec.pcapng", Link::Ethernet, "pcapng", 1, "EN10MB", true},
    {"sll2.pcapng", Link::Sll2, "pcapng", 276, "LINUX_SLL2", false},
};

uint32_t le32(const Bytes& b, size_t o) {
  return uint32_t(b[o]) | uint32_t(b[o + 1]) << 8 | uint32_t(b[o + 2]) << 16 | uint32_t(b[o + 3]) << 24;
}

// Offsets of the enhanced packet blocks of a little-endian pcapng file.
std::vector<uint64_t> pcapngPacketBlocks(const Bytes& b) {
  std::vector<uint64_t> offs;
  for (size_t off = 0; off + 12 <= b.size(); off += le32(b, off + 4))
    if (le32(b, off) == 6) offs.push_back(off);
  return offs;
}

}  // namespace

TEST_CASE("reader: every file delivers each frame exactly", "[capture]") {
  const auto scenario = testgen::linkScenario();
  for (const FileCase& fc : kFiles) {
    INFO(fc.name);
    auto r = CaptureReader::open(linkData(fc.name));
    CHECK(r->format() == fc.format);
    CHECK(r->linkType() == fc.dlt);
    CHECK(r->linkTypeName() == fc.dltName);
    const Bytes file = readBytes(linkData(fc.name));
    CHECK(r->fileSize() == file.size());
    // pcapng: its section header and first interface are read on opening.
    const uint64_t before = r->bytesRead();

    const auto recs = readAll(*r);
    REQUIRE(recs.size() == 20);
    CHECK(before == (std::string(fc.format) == "pcapng" ? recs[0].raw.file_offset : 0));
    CHECK_FALSE(r->truncated());
    CHECK(r->warning().empty());
    CHECK(r->bytesRead() == file.size());
    RawPacket again;
    CHECK_FALSE(r->next(again));  // stays at the end

    const bool ng = std::string(fc.format) == "pcapng";
    const auto blocks = ng ? pcapngPacketBlocks(file) : std::vector<uint64_t>{};
    if (ng) REQUIRE(blocks.size() == 20);
    uint64_t offset = 24;
    for (size_t i = 0; i < recs.size(); ++i) {
      INFO("frame " << i + 1);
      const Bytes expected = testgen::wrap(fc.link, scenario[i]);
      CHECK(recs[i].raw.frame == i + 1);
      CHECK(recs[i].raw.ts_ns == (fc.nano ? testgen::nsecTsNs(i) : testgen::usecTsNs(i)));
      CHECK(recs[i].raw.caplen == expected.size());
      CHECK(recs[i].raw.origlen == expected.size());
      CHECK(recs[i].data == expected);
      CHECK(recs[i].raw.file_offset == (ng ? blocks[i] : offset));
      offset += 16 + expected.size();
    }
  }
}

TEST_CASE("reader: exact nanosecond and microsecond timestamps", "[capture]") {
  auto usec = readAll(*CaptureReader::open(linkData("eth.pcap")));
  auto nsec = readAll(*CaptureReader::open(linkData("eth_nsec.pcap")));
  auto ng = readAll(*CaptureReader::open(linkData("eth_nsec.pcapng")));
  CHECK(usec[0].raw.ts_ns == 1'700'000'000'123'456'000);
  CHECK(usec[19].raw.ts_ns == 1'700'000'004'873'589'000);
  CHECK(nsec[0].raw.ts_ns == 1'700'000'000'123'456'789);
  CHECK(nsec[1].raw.ts_ns == 1'700'000'000'373'463'792);
  CHECK(nsec[19].raw.ts_ns == 1'700'000'004'873'589'846);
  CHECK(ng[19].raw.ts_ns == 1'700'000'004'873'589'846);
}

TEST_CASE("reader: byte-swapped pcap equals the native one", "[capture]") {
  auto native = readAll(*CaptureReader::open(linkData("eth.pcap")));
  auto swapped = readAll(*CaptureReader::open(linkData("eth_swapped.pcap")));
  REQUIRE(native.size() == swapped.size());
  for (size_t i = 0; i < native.size(); ++i) {
    CHECK(native[i].raw.ts_ns == swapped[i].raw.ts_ns);
    CHECK(native[i].raw.file_offset == swapped[i].raw.file_offset);
    CHECK(native[i].data == swapped[i].data);
  }
}

TEST_CASE("reader: pcapng offsets point at the packet block", "[capture]") {
  // Frame 3 carries a comment option, so its block is longer than minimal.
  const Bytes file = readBytes(linkData("eth.pcapng"));
  auto recs = readAll(*CaptureReader::open(linkData("eth.pcapng")));
  REQUIRE(recs.size() == 20);
  for (const auto& rec : recs) {
    INFO("frame " << rec.raw.frame);
    const uint64_t o = rec.raw.file_offset;
    REQUIRE(o + 28 <= file.size());
    CHECK(le32(file, o) == 6);  // EPB type
    CHECK(le32(file, o + 20) == rec.raw.caplen);
  }
  CHECK(le32(file, recs[2].raw.file_offset + 4) > 32 + ((recs[2].raw.caplen + 3) & ~3u));
  // The first EPB follows the section header and interface description.
  CHECK(recs[0].raw.file_offset > 28);
}

TEST_CASE("reader: progress grows to the file size", "[capture]") {
  auto r = CaptureReader::open(linkData("sll2.pcapng"));
  RawPacket p;
  uint64_t last = 0;
  while (r->next(p)) {
    CHECK(r->bytesRead() > last);
    CHECK(r->bytesRead() <= r->fileSize());
    CHECK(r->bytesRead() > p.file_offset);
    last = r->bytesRead();
  }
  CHECK(r->bytesRead() == r->fileSize());
}
