// Garbage never crashes the decoder: every link type gets random frames,
// every cut of every scenario frame, and randomly corrupted real frames.
// Each frame sits in an exactly sized heap buffer so ASan sees over-reads;
// the checks below catch results that point outside the frame.
#include <catch2/catch.hpp>

#include <random>

#include "capture_test_util.h"
#include "link_scenario.h"

using namespace rudp;
using namespace rudp::test;
using namespace rudp::testgen;

namespace {

const int kLinkTypes[] = {0, 1, 12, 14, 101, 108, 113, 228, 229, 276};

// The scenario frame as `dlt` carries it.
Bytes asLink(int dlt, const ScenarioFrame& f) {
  switch (dlt) {
    case 0: return wrap(Link::Null, f);
    case 1: return wrap(Link::QinQ, f);
    case 108: return wrap(Link::Loop, f);
    case 113: return wrap(Link::Sll, f);
    case 276: return wrap(Link::Sll2, f);
    default: return f.ip;
  }
}

void decodeChecked(Decoder& dec, const Bytes& frame, int64_t ts) {
  const size_t n = frame.size();
  std::unique_ptr<uint8_t[]> buf(new uint8_t[n ? n : 1]);
  std::copy(frame.begin(), frame.end(), buf.get());
  RawPacket raw;
  raw.ts_ns = ts;
  raw.caplen = raw.origlen = uint32_t(n);
  raw.data = buf.get();
  DecodedPacket out;
  dec.decode(raw, out);
  CHECK(out.payload_len <= out.payload_reported_len);
  if (out.l4 == L4::None) CHECK(out.payload_len == 0);
  if (out.payload_len && !out.ip_reassembled) {
    CHECK(out.payload >= buf.get());
    CHECK(out.payload + out.payload_len <= buf.get() + n);
  }
  if (out.ip_reassembled) CHECK(out.payload_len <= 65535);
  CHECK(out.error.size() < 80);
  // Touch every payload byte so ASan checks the whole range.
  volatile uint8_t sink = 0;
  for (uint32_t i = 0; i < out.payload_len; ++i) sink = sink ^ out.payload[i];
  (void)sink;
}

}  // namespace

TEST_CASE("fuzz: every cut of every scenario frame, on every link type", "[decode][fuzz]") {
  const auto scenario = linkScenario();
  for (int dlt : kLinkTypes) {
    INFO("dlt " << dlt);
    Decoder dec(dlt);
    for (const auto& f : scenario) {
      const Bytes frame = asLink(dlt, f);
      for (size_t len = 0; len <= frame.size(); len += (len < 120 ? 1 : 37))
        decodeChecked(dec, Bytes(frame.begin(), frame.begin() + std::ptrdiff_t(len)), 0);
    }
  }
}

TEST_CASE("fuzz: random bytes on every link type", "[decode][fuzz]") {
  std::mt19937 rng(42);
  for (int dlt : kLinkTypes) {
    INFO("dlt " << dlt);
    Decoder dec(dlt);
    for (int i = 0; i < 3000; ++i) {
      Bytes b(rng() % 160);
      for (auto& x : b) x = uint8_t(rng());
      // Steer some frames past the first checks so deeper layers get garbage.
      if (b.size() > 24 && i % 2) {
        if (dlt == 1) {
          b[12] = 0x08;
          b[13] = 0x00;
          b[14] = uint8_t(0x40 | (b[14] & 0x0f));
        }
        if (dlt == 12 || dlt == 101 || dlt == 228) b[0] = uint8_t(0x40 | (b[0] & 0x0f));
        if (dlt == 229) b[0] = uint8_t(0x60 | (b[0] & 0x0f));
      }
      decodeChecked(dec, b, int64_t(i) * 1000);
    }
  }
}

TEST_CASE("fuzz: corrupted real frames on every link type", "[decode][fuzz]") {
  std::mt19937 rng(7);
  const auto scenario = linkScenario();
  for (int dlt : kLinkTypes) {
    INFO("dlt " << dlt);
    Decoder dec(dlt);
    for (int round = 0; round < 150; ++round) {
      for (const auto& f : scenario) {
        if ((dlt == 228 && isIpv6(f.ip)) || (dlt == 229 && !isIpv6(f.ip))) continue;
        Bytes b = asLink(dlt, f);
        const int flips = 1 + int(rng() % 4);
        for (int k = 0; k < flips; ++k) b[rng() % b.size()] = uint8_t(rng());
        if (rng() % 4 == 0) b.resize(rng() % (b.size() + 1));
        decodeChecked(dec, b, int64_t(round) * 1'000'000);
      }
    }
  }
}

TEST_CASE("fuzz: a flood of random IPv4 fragments stays bounded", "[decode][fuzz]") {
  std::mt19937 rng(99);
  Decoder dec(228);
  for (int i = 0; i < 20000; ++i) {
    const uint16_t off = uint16_t(rng() % 8192);
    const bool more = rng() % 2;
    Bytes body(rng() % 64);
    for (auto& x : body) x = uint8_t(rng());
    const Bytes pkt = ipv4(kClient4, kServer4, rng() % 2 ? 17 : 6, body, uint16_t(rng() % 64),
                           uint16_t((more ? 0x2000 : 0) | off));
    decodeChecked(dec, pkt, int64_t(i) * 1'000'000);
  }
}
