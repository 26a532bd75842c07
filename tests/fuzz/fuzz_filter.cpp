// Fuzz target 8: the display-filter engine. The input is filter text:
// parseFilter, then DisplayFilter compiling it against the shipped
// dissectors' fields (one LuaHost, loaded once), then the compiled filter
// tested on the first frames of resources/sample.pcap (GRUDP, decoded and
// dissected once): a bad filter may only throw FilterError.
#include <cstring>
#include <fstream>
#include <iterator>
#include <string_view>

#include "decode/decoder.h"
#include "filter/display_filter.h"
#include "fuzz_common.h"
#include "lua/dissector_files.h"
#include "lua/host.h"

using namespace rudp;

namespace {

LuaHost& host() {
  static LuaHost* h = [] {
    auto* p = new LuaHost;  // lives for the process
    loadDissectors(*p, DissectorOptions{});
    return p;
  }();
  return *h;
}

// One frame of the sample capture, decoded and dissected.
struct SampleFrame {
  std::vector<uint8_t> bytes;
  RawPacket raw;
  DecodedPacket pkt;
  DissectResult res;
};

// A classic pcap file's records: 24-byte file header, 16-byte record headers.
std::vector<std::vector<uint8_t>> pcapRecords(const std::string& path, size_t most) {
  std::ifstream in(path, std::ios::binary);
  const std::vector<uint8_t> file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::vector<uint8_t>> records;
  for (size_t at = 24; at + 16 <= file.size() && records.size() < most;) {
    uint32_t caplen = 0;
    std::memcpy(&caplen, &file[at + 8], 4);
    if (at + 16 + caplen > file.size()) break;
    records.emplace_back(file.begin() + at + 16, file.begin() + at + 16 + caplen);
    at += 16 + caplen;
  }
  return records;
}

std::vector<SampleFrame>& frames() {
  static std::vector<SampleFrame>* f = [] {
    auto* out = new std::vector<SampleFrame>();
    for (auto& bytes : pcapRecords(std::string(RUDPSCOPE_SOURCE_DIR) + "/resources/sample.pcap", 12)) {
      out->emplace_back();
      out->back().bytes = std::move(bytes);
    }
    Decoder decoder(1);  // Ethernet
    for (size_t i = 0; i < out->size(); ++i) {
      SampleFrame& s = (*out)[i];
      s.raw.frame = i + 1;
      s.raw.ts_ns = 1'700'000'000'000'000'000 + static_cast<int64_t>(i) * 1'500'000;
      s.raw.caplen = s.raw.origlen = static_cast<uint32_t>(s.bytes.size());
      s.raw.data = s.bytes.data();
      decoder.decode(s.raw, s.pkt);
      if (s.pkt.l4 == L4::UDP) host().dissectUdp(s.pkt, false, s.res);
    }
    return out;
  }();
  return *f;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    (void)parseFilter(text);
  } catch (const FilterError& e) {
    if (e.position() > size) fuzz::fail("error position past the text");
    return 0;
  }
  try {
    const DisplayFilter filter(text, host());
    FilterFrameSequence sequence(1, filter.needsConversations());
    for (const SampleFrame& s : frames())
      (void)filter.matchesShown(sequence.next(s.raw, s.pkt, &s.res), sequence);
    (void)filter.storedCondition(0);
  } catch (const FilterError& e) {
    if (e.position() > size) fuzz::fail("error position past the text");
  }
  return 0;
}
