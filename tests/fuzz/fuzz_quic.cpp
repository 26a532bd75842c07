// Fuzz target: QUIC read as a passive observer does (decode/quic*.h,
// analyzers/quic_analyzer.h), and the TLS key log it opens packets with.
//
// Input: u16 length | key log text of that length, then datagrams, each as
//   u8 flags (bit 0: sent by the client) | u8 time step | u16 length | bytes
// fed in order to one QuicSession (the key log's secrets), every opened
// packet's fields and Info column extracted and the datagram given to a
// QuicAnalyzer, and its details tree built (packets/quic_layer.h). Each
// datagram's bytes are also read as a packet's plaintext (frames, their
// details, a TLS handshake message, transport parameters), which encryption
// would otherwise keep from the frame readers.
#include "analyzers/quic_analyzer.h"
#include "decode/quic_fields.h"
#include "decode/quic_info.h"
#include "decode/quic_session.h"
#include "decode/tls_keylog.h"
#include "fuzz_common.h"
#include "packets/quic_layer.h"

using namespace rudp;

namespace {

// The details tree of `d` over `bytes`, every item within the bytes it names.
void details(const quic::Datagram& d, const std::vector<uint8_t>& bytes) {
  std::vector<FrameItem> items;
  LayerTree tree(items, bytes.data(), uint32_t(bytes.size()));
  addQuicLayers(tree, d, 0);
  for (const FrameItem& item : items)
    if (item.offset != FrameItem::kNoBytes && uint64_t(item.offset) + item.length > bytes.size())
      fuzz::fail("a details item beyond its datagram");
}

// `bytes` as a short header packet whose plaintext they are, decrypted.
void plaintextDetails(const std::vector<uint8_t>& bytes, std::vector<quic::Frame> frames) {
  if (bytes.size() < 2) return;
  quic::Datagram d;
  d.connection = 1;
  quic::Packet& p = d.packets.emplace_back();
  p.header.pn_at = 1;
  p.header.size = uint32_t(bytes.size());
  p.unprotected = p.decrypted = true;
  p.pn_len = 1;
  p.plaintext.assign(bytes.begin(), bytes.end());
  p.frames = std::move(frames);
  details(d, bytes);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Reader in(data, size);
  const std::vector<uint8_t> keyText = in.bytes(in.u16() % 8192);
  quic::KeyLog keys;
  (void)keys.add(std::string_view(reinterpret_cast<const char*>(keyText.data()), keyText.size()));
  quic::QuicSession session(&keys);
  ana::AnalyzerConfig cfg;
  ana::QuicAnalyzer analyzer(cfg, nullptr);
  quic::Endpoint client, server;
  client.addr.family = server.addr.family = 4;
  client.addr.bytes[3] = 1;
  server.addr.bytes[3] = 2;
  client.port = 50000;
  server.port = 443;
  int64_t ts = 1'000'000'000;
  quic::Datagram d;
  std::vector<quic::FieldValue> values;
  for (uint64_t frame = 1; !in.empty() && frame < 512; ++frame) {
    const uint8_t flags = in.u8();
    ts += int64_t(in.u8()) * 250'000;
    std::vector<uint8_t> bytes = in.bytes(in.u16() % 2048);
    if (bytes.empty()) continue;
    const bool fromClient = flags & 1;
    const uint32_t n = uint32_t(bytes.size());
    if (session.read(fromClient ? client : server, fromClient ? server : client, bytes.data(), n, d)) {
      if (d.connection == 0 || d.connection > session.connections()) fuzz::fail("connection out of range");
      uint32_t end = 0;
      for (const quic::Packet& p : d.packets) {
        if (p.at < end) fuzz::fail("coalesced packets overlap");
        end = p.at + p.header.size;
        if (end > n) fuzz::fail("a packet beyond its datagram");
        if (p.decrypted && !p.unprotected) fuzz::fail("decrypted without a packet number");
        for (const quic::Frame& f : p.frames)
          if (uint64_t(f.at) + f.size > p.plaintext.size()) fuzz::fail("a frame beyond its plaintext");
      }
      for (size_t i = 0; i < quic::fieldNames().size(); ++i) {
        values.clear();
        quic::fieldValues(i, d, values);
      }
      const std::string info = quic::infoColumn(d);
      if (info.empty() != d.packets.empty()) fuzz::fail("an Info column without a packet, or none for one");
      const Direction dir = d.from_client ? Direction::ClientToServer : Direction::ServerToClient;
      analyzer.onDatagram(frame, ts, dir, d, n, session.parameters(d.connection, d.from_client));
      details(d, bytes);
    }
    std::vector<quic::Frame> frames;
    (void)quic::parseFrames(bytes.data(), n, frames);
    plaintextDetails(bytes, frames);
    quic::HandshakeMessage m;
    uint32_t need = 0;
    (void)quic::parseHandshakeMessage(bytes.data(), n, m, need);
    quic::TransportParameters tp;
    (void)quic::parseTransportParameters(bytes.data(), n, tp);
  }
  (void)analyzer.finish();
  return 0;
}
