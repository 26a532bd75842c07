#include "decode/quic_session.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>

namespace rudp::quic {

namespace {

constexpr int kClient = 0, kServer = 1;         // a sender's side
constexpr uint32_t kMaxCryptoBytes = 1u << 16;  // of one CRYPTO stream kept to read the handshake from

// One CRYPTO stream (a sender, a level) as far as it is contiguous from 0,
// at most kMaxCryptoBytes; pieces beyond its end wait, by offset, within the
// same bound (a hostile capture cannot grow it, nor make merging quadratic).
struct CryptoStream {
  Bytes data;
  std::map<uint64_t, Bytes> early;  // offset -> bytes beyond the contiguous end
  size_t early_bytes = 0;
  uint32_t parsed = 0;  // handshake messages read up to here

  void add(uint64_t offset, const uint8_t* p, uint64_t n) {
    if (offset >= kMaxCryptoBytes) return;
    n = std::min<uint64_t>(n, kMaxCryptoBytes - offset);
    if (offset > data.size()) {
      if (early_bytes + n <= kMaxCryptoBytes && early.emplace(offset, Bytes(p, p + n)).second)
        early_bytes += n;
      return;
    }
    append(offset, p, n);
    // Pieces the new end reaches, in offset order.
    while (!early.empty() && early.begin()->first <= data.size()) {
      const auto it = early.begin();
      append(it->first, it->second.data(), it->second.size());
      early_bytes -= it->second.size();
      early.erase(it);
    }
  }

 private:
  void append(uint64_t offset, const uint8_t* p, uint64_t n) {
    if (offset + n <= data.size()) return;
    const uint64_t skip = data.size() - offset;
    data.insert(data.end(), p + skip, p + n);
  }
};

// One direction's 1-RTT keys across key updates (RFC 9001 6).
struct AppKeys {
  PacketKeys current, next, previous;
  bool phase = false;
  void start(PacketKeys k) {
    current = std::move(k);
    next = nextKeys(current);
  }
};

struct Connection {
  uint64_t id = 0;
  uint32_t version = kVersion1;
  Endpoint client;
  ConnId original_dcid;
  InitialKeys initial;
  PacketKeys handshake[2];
  AppKeys app[2];
  CryptoStream crypto[2][2];  // [side][Initial, Handshake]
  int64_t largest[2][kSpaces] = {{-1, -1, -1}, {-1, -1, -1}};
  TransportParameters params[2];
  KeyLog::Random random{};
  bool have_random = false, have_cipher = false, secrets_tried = false;
  uint8_t id_length[2] = {0, 0};  // the length of the connection ids each side chose
  Cipher cipher = Cipher::Aes128Gcm;
};

// Where a connection id leads: the connection, and the side that receives
// packets carrying it.
struct Route {
  Connection* conn = nullptr;
  int receiver = kServer;
};

struct ConnIdLess {
  bool operator()(const ConnId& a, const ConnId& b) const {
    if (a.len != b.len) return a.len < b.len;
    return std::memcmp(a.id, b.id, a.len) < 0;
  }
};

// RFC 9000 12.4: Initial and Handshake packets carry only PADDING, PING,
// ACK, CRYPTO and CONNECTION_CLOSE; another frame there is a protocol
// violation, not a connection id to follow or stream data to count.
void keepHandshakeFrames(Packet& pkt) {
  const auto allowed = [](const Frame& f) {
    return f.is(frame::kPadding) || f.is(frame::kPing) || f.isAck() || f.is(frame::kCrypto) ||
           f.is(frame::kConnectionClose);
  };
  const auto bad = std::find_if_not(pkt.frames.begin(), pkt.frames.end(), allowed);
  if (bad == pkt.frames.end()) return;
  pkt.error = std::string(frameTypeName(bad->type)) + " frame in a " + packetTypeName(pkt.header.type) +
              " packet (RFC 9000 12.4)";
  pkt.frames.erase(bad, pkt.frames.end());
}

// The header as it was before protection (the AEAD's associated data): the
// first byte and the packet number unmasked.
Bytes unprotectedHeader(const uint8_t* p, const Header& h, const Unprotected& u) {
  Bytes header(p, p + u.payload_at);
  header[0] = u.first;
  for (uint32_t i = 0; i < u.pn_len; ++i)
    header[h.pn_at + i] = uint8_t(u.truncated_pn >> (8 * (u.pn_len - 1 - i)));
  return header;
}

}  // namespace

struct QuicSession::Impl {
  const KeyLog* keylog = nullptr;
  std::vector<std::unique_ptr<Connection>> conns;
  std::map<ConnId, Route, ConnIdLess> routes;
  std::set<uint8_t> short_lengths;  // lengths of the connection ids met, for short headers
  // A side that chose a zero-length connection id is found by its address
  // (RFC 9000 5.2: it cannot migrate): the packets from `first` to `second`.
  std::map<std::pair<Endpoint, Endpoint>, Route> by_address;

  Route* findByAddress(const Endpoint& src, const Endpoint& dst) {
    const auto it = by_address.find({src, dst});
    return it == by_address.end() ? nullptr : &it->second;
  }

  void route(const ConnId& id, Connection* c, int receiver) {
    c->id_length[receiver] = id.len;
    if (id.len == 0) return;
    routes[id] = {c, receiver};
    short_lengths.insert(id.len);
  }
  Route* find(const ConnId& id) {
    const auto it = routes.find(id);
    return it == routes.end() ? nullptr : &it->second;
  }
  // The route a short header's destination id takes: tried at each length met.
  Route* findShort(const uint8_t* p, uint32_t n, uint8_t& len) {
    for (uint8_t l : short_lengths) {
      if (n < 1u + l) continue;
      ConnId id;
      id.len = l;
      std::memcpy(id.id, p + 1, l);
      if (Route* r = find(id)) {
        len = l;
        return r;
      }
    }
    return nullptr;
  }

  Connection* start(const Header& h, const Endpoint& src, const Endpoint& dst) {
    auto c = std::make_unique<Connection>();
    c->id = conns.size() + 1;
    c->version = h.version;
    c->client = src;
    c->original_dcid = h.dcid;
    c->initial = initialKeys(h.version, h.dcid);
    Connection* raw = c.get();
    conns.push_back(std::move(c));
    route(h.dcid, raw, kServer);
    route(h.scid, raw, kClient);
    by_address[{src, dst}] = {raw, kServer};
    by_address[{dst, src}] = {raw, kClient};
    return raw;
  }

  const PacketKeys* keysFor(Connection& c, int sender, PacketType t) {
    switch (t) {
      case PacketType::Initial: return sender == kClient ? &c.initial.client : &c.initial.server;
      case PacketType::Handshake: return &c.handshake[sender];
      case PacketType::OneRtt: return &c.app[sender].current;
      default: return nullptr;
    }
  }

  void openPacket(Connection& c, int sender, const uint8_t* p, Packet& pkt);
  // RFC 9001 5.2: after a Retry the client's Initials use the connection id
  // the Retry chose, and their keys come from it.
  void retry(Connection& c, const Header& h) {
    c.initial = initialKeys(c.version, h.scid);
    route(h.scid, &c, kServer);
  }
  bool openOneRtt(Connection& c, int sender, const uint8_t* p, const Unprotected& u, Packet& pkt);
  void readCrypto(Connection& c, int sender, Space space, const Packet& pkt);
  void onHandshakeMessage(Connection& c, int sender, const HandshakeMessage& m);
  void deriveFromKeyLog(Connection& c);
  std::string missingKeysText(const Connection& c) const;
};

QuicSession::QuicSession(const KeyLog* keys) : d(std::make_unique<Impl>()) { d->keylog = keys; }
QuicSession::~QuicSession() = default;

size_t QuicSession::connections() const { return d->conns.size(); }

const TransportParameters& QuicSession::parameters(uint64_t connection, bool client) const {
  static const TransportParameters defaults;
  if (connection == 0 || connection > d->conns.size()) return defaults;
  return d->conns[connection - 1]->params[client ? kClient : kServer];
}

ConnectionKeys QuicSession::keys(uint64_t connection) const {
  ConnectionKeys k;
  if (connection == 0 || connection > d->conns.size()) return k;
  const Connection& c = *d->conns[connection - 1];
  k.client_random = c.have_random;
  k.cipher = c.have_cipher;
  k.chosen = c.cipher;
  k.handshake = c.handshake[kClient].valid();
  k.application = c.app[kClient].current.valid();
  return k;
}

bool QuicSession::read(const Endpoint& src, const Endpoint& dst, const uint8_t* p, uint32_t n,
                       Datagram& out) {
  out = Datagram{};
  Connection* conn = nullptr;
  int sender = kClient;
  for (uint32_t at = 0; at < n;) {
    Packet pkt;
    pkt.at = at;
    const uint8_t* q = p + at;
    const uint32_t left = n - at;
    uint8_t shortLen = 0;
    Route* route = nullptr;
    // After a packet, bytes without the fixed bit are padding (tshark: "(Random)
    // padding data appended to the datagram"), not a packet.
    if (at > 0 && !(q[0] & 0x40)) {
      out.padding = left;
      break;
    }
    if (!(q[0] & 0x80)) {
      route = d->findShort(q, left, shortLen);
      if (!route) {
        // A zero-length id, or one announced in a frame the capture could
        // not decrypt: the addresses tell, as Wireshark's UDP conversation
        // does, and the receiver's ids have the length its others have.
        route = d->findByAddress(src, dst);
        if (route) shortLen = route->conn->id_length[route->receiver];
      }
      if (!route) {
        if (at == 0) return false;  // not a connection met: not QUIC as far as we know
        pkt.error = "short header packet of an unknown connection";
        pkt.header.size = left;
        out.packets.push_back(std::move(pkt));
        break;
      }
    }
    pkt.error = parseHeader(q, left, shortLen, pkt.header);
    const Header& h = pkt.header;
    if (at == 0 && h.long_header && !knownVersion(h.version) && h.version != 0) return false;
    pkt.header_cut = !pkt.error.empty();
    if (pkt.header_cut) {  // kept with its connection, if known
      if (!route && h.dcid.len) route = d->find(h.dcid);
      if (!route) route = d->findByAddress(src, dst);
      if (!conn && route) {
        conn = route->conn;
        sender = route->receiver == kServer ? kClient : kServer;
      }
      if (!conn) return false;
      out.packets.push_back(std::move(pkt));
      break;
    }
    if (!route && h.dcid.len) route = d->find(h.dcid);
    // A destination id announced in a packet that could not be opened: the
    // source id, which its sender chose and keeps, names the connection.
    Route bySource;
    if (!route && h.long_header && h.scid.len)
      if (const Route* owner = d->find(h.scid)) {
        bySource = {owner->conn, owner->receiver == kServer ? kClient : kServer};
        route = &bySource;
      }
    if (!route && (h.type != PacketType::Initial || h.dcid.len == 0)) route = d->findByAddress(src, dst);
    if (!route && h.type == PacketType::Initial) {
      conn = d->start(h, src, dst);
      sender = kClient;
    } else if (route) {
      conn = route->conn;
      sender = route->receiver == kServer ? kClient : kServer;
      if (h.long_header) d->route(h.scid, conn, sender);
    } else if (at == 0) {
      return false;
    }
    if (conn && h.type == PacketType::Retry && sender == kServer) d->retry(*conn, h);
    if (conn && h.type != PacketType::Retry && h.type != PacketType::VersionNegotiation)
      d->openPacket(*conn, sender, q, pkt);
    at += std::max<uint32_t>(h.size, 1);
    out.packets.push_back(std::move(pkt));
  }
  if (!conn) return false;
  out.connection = conn->id;
  out.from_client = sender == kClient;
  return true;
}

void QuicSession::Impl::openPacket(Connection& c, int sender, const uint8_t* p, Packet& pkt) {
  const Header& h = pkt.header;
  const PacketKeys* k = keysFor(c, sender, h.type);
  if (!k || !k->valid()) {
    pkt.no_keys = true;
    pkt.keys_pending = keylog && c.have_random && !c.have_cipher && keylog->find(c.random);
    pkt.error = missingKeysText(c);
    return;
  }
  Unprotected u;
  if (!removeHeaderProtection(*k, p, h, u)) {
    pkt.error = "too short for header protection's sample";
    return;
  }
  const Space space = spaceOf(h.type);
  int64_t& largest = c.largest[sender][int(space)];
  pkt.first = u.first;
  pkt.pn_len = u.pn_len;
  pkt.key_phase = u.key_phase;
  pkt.packet_number = expandPacketNumber(largest, u.truncated_pn, 8 * u.pn_len);
  pkt.unprotected = true;
  bool opened = false;
  if (h.type == PacketType::OneRtt) {
    opened = openOneRtt(c, sender, p, u, pkt);
  } else {
    const Bytes header = unprotectedHeader(p, h, u);
    opened = openPayload(*k, pkt.packet_number, header.data(), u.payload_at, p + u.payload_at,
                         h.size - u.payload_at, pkt.plaintext);
  }
  if (!opened) {
    pkt.unprotected = false;
    pkt.error = "decryption failed (wrong keys, or a packet damaged on the way)";
    return;
  }
  pkt.decrypted = true;
  largest = std::max<int64_t>(largest, int64_t(pkt.packet_number));
  const std::string frameError =
      parseFrames(pkt.plaintext.data(), uint32_t(pkt.plaintext.size()), pkt.frames);
  if (!frameError.empty()) pkt.error = frameError;
  if (space != Space::Application) keepHandshakeFrames(pkt);
  if (space != Space::Application) readCrypto(c, sender, space, pkt);
  for (const Frame& f : pkt.frames)
    if (f.is(frame::kNewConnectionId)) route(f.conn_id, &c, sender);
}

// 1-RTT: the key phase bit says which keys; a flip is a key update, and a
// packet of the old phase may still arrive after it.
bool QuicSession::Impl::openOneRtt(Connection& c, int sender, const uint8_t* p, const Unprotected& u,
                                   Packet& pkt) {
  AppKeys& keys = c.app[sender];
  const Bytes header = unprotectedHeader(p, pkt.header, u);
  auto open = [&](const PacketKeys& k) {
    return k.valid() && openPayload(k, pkt.packet_number, header.data(), u.payload_at, p + u.payload_at,
                                    pkt.header.size - u.payload_at, pkt.plaintext);
  };
  if (u.key_phase == keys.phase) return open(keys.current);
  if (open(keys.next)) {
    keys.previous = std::move(keys.current);
    keys.start(std::move(keys.next));
    keys.phase = u.key_phase;
    return true;
  }
  return open(keys.previous);
}

void QuicSession::Impl::readCrypto(Connection& c, int sender, Space space, const Packet& pkt) {
  CryptoStream& s = c.crypto[sender][space == Space::Initial ? 0 : 1];
  for (const Frame& f : pkt.frames)
    if (f.is(frame::kCrypto)) s.add(f.offset, pkt.plaintext.data() + f.data_at, f.length);
  HandshakeMessage m;
  uint32_t need = 0;
  while (s.parsed < s.data.size()) {
    if (!parseHandshakeMessage(s.data.data() + s.parsed, uint32_t(s.data.size() - s.parsed), m, need)) {
      if (need == 0) s.parsed = uint32_t(s.data.size());  // malformed: read no further
      break;
    }
    s.parsed += m.size;
    onHandshakeMessage(c, sender, m);
  }
}

void QuicSession::Impl::onHandshakeMessage(Connection& c, int sender, const HandshakeMessage& m) {
  if (m.has_transport_parameters) c.params[sender] = m.params;
  if (m.type == tls::kClientHello && sender == kClient) {
    std::memcpy(c.random.data(), m.random, 32);
    c.have_random = true;
  }
  if (m.type == tls::kServerHello && sender == kServer)
    c.have_cipher = cipherOfSuite(m.cipher_suite, c.cipher);
  if (c.have_random && c.have_cipher && !c.secrets_tried) deriveFromKeyLog(c);
}

void QuicSession::Impl::deriveFromKeyLog(Connection& c) {
  c.secrets_tried = true;
  const KeyLog::SecretSet* s = keylog ? keylog->find(c.random) : nullptr;
  if (!s) return;
  auto keys = [&](Secret which) {
    const Bytes& secret = (*s)[size_t(which)];
    return secret.empty() ? PacketKeys{} : keysFromSecret(c.cipher, c.version, secret);
  };
  c.handshake[kClient] = keys(Secret::ClientHandshake);
  c.handshake[kServer] = keys(Secret::ServerHandshake);
  c.app[kClient].start(keys(Secret::ClientApplication));
  c.app[kServer].start(keys(Secret::ServerApplication));
}

std::string QuicSession::Impl::missingKeysText(const Connection& c) const {
  if (!keylog) return "encrypted: give the key log to decrypt it";
  if (!c.have_random) return "encrypted: the capture lacks the connection's ClientHello";
  if (!c.have_cipher) return "encrypted: the capture lacks the connection's ServerHello";
  if (!keylog->find(c.random)) return "encrypted: the key log has no secrets for this connection";
  return "encrypted: the key log lacks this level's secret";
}

}  // namespace rudp::quic
