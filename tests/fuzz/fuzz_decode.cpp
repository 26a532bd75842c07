// Fuzz target 2: link / IP / UDP / TCP decoding, IPv4 and IPv6 reassembly included.
//
// Input: byte 0 picks the link type; then frames, each as
//   u16 length | u8 ts step | u8 origlen extra | <length> bytes
// fed in order to one Decoder, so fragments of one datagram can meet.
#include <iterator>

#include "decode/decoder.h"
#include "fuzz_common.h"

using namespace rudp;

namespace {
// Every link type the decoder supports, plus one it does not.
constexpr int kLinkTypes[] = {0,   1,   9,   12,  14,  50,  51,  101, 104, 105,
                              108, 113, 127, 228, 229, 276, 239, 258, 147};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Reader in(data, size);
  const int dlt = kLinkTypes[in.u8() % std::size(kLinkTypes)];
  Decoder decoder(dlt);
  DecodedPacket out;
  int64_t ts = 1'700'000'000'000'000'000;
  uint64_t frame = 0;
  while (!in.empty() && frame < 4096) {
    const size_t len = in.u16() % 4096;
    const uint8_t step = in.u8();
    // Steps of up to ~64 s make the reassembler's timeouts reachable.
    ts += static_cast<int64_t>(step) * (step & 0x80 ? 500'000'000 : 1'000);
    const uint8_t extra = in.u8();
    std::vector<uint8_t> bytes = in.bytes(len);
    RawPacket raw;
    raw.frame = ++frame;
    raw.ts_ns = ts;
    raw.caplen = static_cast<uint32_t>(bytes.size());
    raw.origlen = raw.caplen + extra;
    raw.file_offset = frame * 16;
    raw.data = bytes.empty() ? nullptr : bytes.data();
    decoder.decode(raw, out);

    if (out.frame != raw.frame) fuzz::fail("frame number not copied");
    if (out.payload_len && !out.payload) fuzz::fail("payload_len without payload");
    if (out.l4 == L4::None && out.payload_len) fuzz::fail("payload without a transport layer");
    // The payload points into the frame or the reassembly buffer: every byte
    // must be readable now (ASan checks the bounds).
    fuzz::touch(out.payload, out.payload_len);
    if (!out.ip_reassembled && out.payload_len &&
        (out.payload < bytes.data() || out.payload + out.payload_len > bytes.data() + bytes.size()))
      fuzz::fail("payload of an unfragmented frame outside the frame");
    if (out.l3 == L3::IPv4 && out.src.family != 4) fuzz::fail("IPv4 without a v4 address");
    if (out.l3 == L3::IPv6 && out.src.family != 6) fuzz::fail("IPv6 without a v6 address");
    (void)out.src.toString();
    (void)out.dst.toString();
  }
  return 0;
}
