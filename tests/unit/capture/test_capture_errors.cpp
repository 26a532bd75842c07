// CaptureReader on files that are missing, not captures, cut off or damaged:
// one clear line each, and every packet before the damage delivered.
#include <catch2/catch.hpp>

#include <random>

#include "capture_test_util.h"
#include "core/error.h"

using namespace rudp;
using namespace rudp::test;

namespace {

std::string openError(const std::string& path) {
  try {
    CaptureReader::open(path);
  } catch (const CaptureError& e) { return e.what(); }
  return "(no error)";
}

Bytes prefix(const Bytes& b, size_t n) { return Bytes(b.begin(), b.begin() + std::ptrdiff_t(n)); }

void putLe32(Bytes& b, size_t o, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[o + size_t(i)] = uint8_t(v >> (8 * i));
}

// Offset of the 1-based frame `n`'s record in a pcap file.
size_t pcapRecord(const Bytes& b, int n) {
  size_t off = 24;
  for (int i = 1; i < n; ++i)
    off += 16 + (uint32_t(b[off + 8]) | uint32_t(b[off + 9]) << 8 | uint32_t(b[off + 10]) << 16);
  return off;
}

}  // namespace

TEST_CASE("errors: missing file", "[capture]") {
  CHECK(openError("/nonexistent/dir/x.pcap") ==
        "cannot open '/nonexistent/dir/x.pcap': No such file or directory");
}

TEST_CASE("errors: a directory", "[capture]") {
  const std::string dir = linkData("");
  CHECK(openError(dir) == "cannot open '" + dir + "': Is a directory");
}

TEST_CASE("errors: empty file", "[capture]") {
  TempFile f("empty.pcap", {});
  CHECK(openError(f.path) == "'" + f.path + "' is empty, not a pcap or pcapng capture");
}

TEST_CASE("errors: not a capture", "[capture]") {
  TempFile text("notes.txt", testgen::text("this is a text file, not a capture\n"));
  CHECK(openError(text.path) == "'" + text.path + "' is not a pcap or pcapng capture");
  TempFile tiny("tiny.pcap", {0xd4, 0xc3});
  CHECK(openError(tiny.path) == "'" + tiny.path + "' is not a pcap or pcapng capture");
}

TEST_CASE("errors: file header cut off", "[capture]") {
  const Bytes pcap = readBytes(linkData("eth.pcap"));
  TempFile a("header_cut.pcap", prefix(pcap, 10));
  CHECK(openError(a.path) == "'" + a.path + "' is cut off inside its file header");
  const Bytes ng = readBytes(linkData("eth.pcapng"));
  TempFile b("header_cut.pcapng", prefix(ng, 10));
  CHECK(openError(b.path) == "'" + b.path + "' is cut off inside its file header");
}

TEST_CASE("truncation: pcap cut mid-packet", "[capture]") {
  const std::string path = linkData("eth_truncated.pcap");
  auto r = CaptureReader::open(path);
  const auto recs = readAll(*r);
  const auto full = readAll(*CaptureReader::open(linkData("eth.pcap")));
  REQUIRE(recs.size() == 11);
  for (size_t i = 0; i < recs.size(); ++i) CHECK(recs[i].data == full[i].data);
  CHECK(r->truncated());
  CHECK(r->warning() == "'" + path + "' is cut off in the middle of a packet after frame 11; 11 frames read");
  RawPacket p;
  CHECK_FALSE(r->next(p));
}

TEST_CASE("truncation: pcapng cut mid-block", "[capture]") {
  const std::string path = linkData("eth_truncated.pcapng");
  auto r = CaptureReader::open(path);
  CHECK(readAll(*r).size() == 11);
  CHECK(r->truncated());
  CHECK(r->warning() == "'" + path + "' is cut off in the middle of a packet after frame 11; 11 frames read");
}

TEST_CASE("truncation: cut inside a record header and at every byte", "[capture]") {
  const Bytes pcap = readBytes(linkData("eth.pcap"));
  const size_t rec5 = pcapRecord(pcap, 5);
  TempFile f("cut_header.pcap", prefix(pcap, rec5 + 8));
  auto r = CaptureReader::open(f.path);
  CHECK(readAll(*r).size() == 4);
  CHECK(r->truncated());
  CHECK(r->warning() == "'" + f.path + "' is cut off in the middle of a packet after frame 4; 4 frames read");

  // Cut exactly at a record boundary: a clean end, no warning.
  TempFile g("cut_boundary.pcap", prefix(pcap, rec5));
  auto r2 = CaptureReader::open(g.path);
  CHECK(readAll(*r2).size() == 4);
  CHECK_FALSE(r2->truncated());
  CHECK(r2->warning().empty());

  // Any cut inside the first record.
  for (size_t cut = 25; cut < pcapRecord(pcap, 2); cut += 7) {
    TempFile h("cut_first.pcap", prefix(pcap, cut));
    auto r3 = CaptureReader::open(h.path);
    CHECK(readAll(*r3).empty());
    CHECK(r3->truncated());
    CHECK(r3->warning() == "'" + h.path + "' is cut off in the middle of its first packet; 0 frames read");
  }
}

TEST_CASE("damage: absurd record length ends reading with a warning", "[capture]") {
  Bytes pcap = readBytes(linkData("eth.pcap"));
  putLe32(pcap, pcapRecord(pcap, 3) + 8, 0xfffffff0);  // caplen of frame 3
  TempFile f("bad_caplen.pcap", pcap);
  auto r = CaptureReader::open(f.path);
  CHECK(readAll(*r).size() == 2);
  CHECK_FALSE(r->truncated());
  CHECK_THAT(r->warning(), Catch::StartsWith("'" + f.path + "' has a damaged record after frame 2 ("));
  CHECK_THAT(r->warning(), Catch::EndsWith("); 2 frames read"));
}

TEST_CASE("damage: bad pcapng block length ends reading with a warning", "[capture]") {
  Bytes ng = readBytes(linkData("eth.pcapng"));
  auto recs = readAll(*CaptureReader::open(linkData("eth.pcapng")));
  putLe32(ng, size_t(recs[4].raw.file_offset) + 4, 0xfffffff0);  // frame 5's block length
  TempFile f("bad_block.pcapng", ng);
  auto r = CaptureReader::open(f.path);
  CHECK(readAll(*r).size() == 4);
  CHECK_FALSE(r->warning().empty());
}

TEST_CASE("damage: random corruption never crashes the reader", "[capture]") {
  std::mt19937 rng(1234);
  for (const char* name : {"eth.pcap", "eth.pcapng", "eth_nsec.pcap"}) {
    const Bytes clean = readBytes(linkData(name));
    for (int round = 0; round < 40; ++round) {
      Bytes b = clean;
      const int flips = 1 + int(rng() % 8);
      for (int i = 0; i < flips; ++i) b[rng() % b.size()] = uint8_t(rng());
      TempFile f("random.bin", b);
      try {
        auto r = CaptureReader::open(f.path);
        const auto recs = readAll(*r);
        CHECK(recs.size() <= 20 + size_t(flips) * 100);
        CHECK((r->warning().empty() || r->warning().find('\n') == std::string::npos));
      } catch (const CaptureError& e) { CHECK(std::string(e.what()).find('\n') == std::string::npos); }
    }
  }
}
