// Helpers shared by the capture/decode tests.
#pragma once
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "capture/capture_reader.h"
#include "decode/decoder.h"
#include "frame_builder.h"

namespace rudp::test {

using testgen::Bytes;

inline std::string linkData(const std::string& name) {
  return std::string(RUDPSCOPE_SOURCE_DIR) + "/tests/data/link/" + name;
}

// A scratch file under the build tree, removed by the destructor.
struct TempFile {
  std::string path;
  TempFile(const std::string& name, const Bytes& content) {
    path = std::string(RUDPSCOPE_BINARY_DIR) + "/capture_test_" + name;
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (f) {
      if (!content.empty()) std::fwrite(content.data(), 1, content.size(), f);
      std::fclose(f);
    }
  }
  ~TempFile() { std::remove(path.c_str()); }
};

inline Bytes readBytes(const std::string& path) {
  Bytes b;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return b;
  uint8_t buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) b.insert(b.end(), buf, buf + n);
  std::fclose(f);
  return b;
}

// A record with its bytes copied out of libpcap's buffer.
struct Record {
  RawPacket raw;
  Bytes data;
};

inline std::vector<Record> readAll(CaptureReader& r) {
  std::vector<Record> out;
  RawPacket p;
  while (r.next(p)) {
    Record rec{p, Bytes(p.data, p.data + p.caplen)};
    rec.raw.data = nullptr;
    out.push_back(std::move(rec));
  }
  return out;
}

// A decoded packet with its payload copied (the pointer dies with the next decode).
struct Decoded {
  DecodedPacket pkt;
  Bytes payload;
};

inline std::vector<Decoded> decodeFile(const std::string& path, std::string* linkName = nullptr) {
  auto reader = CaptureReader::open(path);
  if (linkName) *linkName = reader->linkTypeName();
  Decoder dec(reader->linkType());
  std::vector<Decoded> out;
  RawPacket raw;
  DecodedPacket pkt;
  while (reader->next(raw)) {
    dec.decode(raw, pkt);
    Decoded d{pkt, Bytes(pkt.payload, pkt.payload + pkt.payload_len)};
    d.pkt.payload = nullptr;
    out.push_back(std::move(d));
  }
  return out;
}

// Decodes one in-memory frame from an exactly sized heap copy, so ASan
// flags any read past its end.
// `origlen`: the frame's length on the wire, 0: as captured.
inline Decoded decodeFrame(Decoder& dec, const Bytes& frame, int64_t ts = 0, uint64_t n = 1,
                           uint32_t origlen = 0) {
  std::unique_ptr<uint8_t[]> copy(new uint8_t[frame.size() ? frame.size() : 1]);
  std::copy(frame.begin(), frame.end(), copy.get());
  RawPacket raw;
  raw.frame = n;
  raw.ts_ns = ts;
  raw.caplen = uint32_t(frame.size());
  raw.origlen = origlen ? origlen : raw.caplen;
  raw.data = copy.get();
  DecodedPacket pkt;
  dec.decode(raw, pkt);
  Decoded d{pkt, Bytes(pkt.payload, pkt.payload + pkt.payload_len)};
  d.pkt.payload = nullptr;
  return d;
}

// `frame` with only its first `keep` bytes captured: cut by the snap
// length, the wire had them all.
inline Decoded decodeSnapped(Decoder& dec, const Bytes& frame, size_t keep, int64_t ts = 0) {
  return decodeFrame(dec, Bytes(frame.begin(), frame.begin() + std::ptrdiff_t(keep)), ts, 1,
                     uint32_t(frame.size()));
}

}  // namespace rudp::test
