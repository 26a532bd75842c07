// QUIC's packet protection against RFC 9001 Appendix A's worked examples
// (the keys, the client's and the server's Initial packets, the ChaCha20
// short header packet and its key update), the frame and header readers,
// and the TLS key log's reading and its errors.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>

#include "decode/quic.h"
#include "decode/quic_crypto.h"
#include "decode/quic_session.h"
#include "decode/tls_keylog.h"

using namespace rudp;
using namespace rudp::quic;

namespace {

Bytes hex(const std::string& h) {
  Bytes b;
  REQUIRE(fromHex(h, b));
  return b;
}

ConnId connId(const std::string& h) {
  const Bytes b = hex(h);
  ConnId c;
  c.len = uint8_t(b.size());
  std::copy(b.begin(), b.end(), c.id);
  return c;
}

// RFC 9001 A.2: the client's first Initial packet, 1200 bytes.
const std::string kClientInitial =
    "c000000001088394c8f03e5157080000449e7b9aec34d1b1c98dd7689fb8ec11"
    "d242b123dc9bd8bab936b47d92ec356c0bab7df5976d27cd449f63300099f399"
    "1c260ec4c60d17b31f8429157bb35a1282a643a8d2262cad67500cadb8e7378c"
    "8eb7539ec4d4905fed1bee1fc8aafba17c750e2c7ace01e6005f80fcb7df6212"
    "30c83711b39343fa028cea7f7fb5ff89eac2308249a02252155e2347b63d58c5"
    "457afd84d05dfffdb20392844ae812154682e9cf012f9021a6f0be17ddd0c208"
    "4dce25ff9b06cde535d0f920a2db1bf362c23e596d11a4f5a6cf3948838a3aec"
    "4e15daf8500a6ef69ec4e3feb6b1d98e610ac8b7ec3faf6ad760b7bad1db4ba3"
    "485e8a94dc250ae3fdb41ed15fb6a8e5eba0fc3dd60bc8e30c5c4287e53805db"
    "059ae0648db2f64264ed5e39be2e20d82df566da8dd5998ccabdae053060ae6c"
    "7b4378e846d29f37ed7b4ea9ec5d82e7961b7f25a9323851f681d582363aa5f8"
    "9937f5a67258bf63ad6f1a0b1d96dbd4faddfcefc5266ba6611722395c906556"
    "be52afe3f565636ad1b17d508b73d8743eeb524be22b3dcbc2c7468d54119c74"
    "68449a13d8e3b95811a198f3491de3e7fe942b330407abf82a4ed7c1b311663a"
    "c69890f4157015853d91e923037c227a33cdd5ec281ca3f79c44546b9d90ca00"
    "f064c99e3dd97911d39fe9c5d0b23a229a234cb36186c4819e8b9c5927726632"
    "291d6a418211cc2962e20fe47feb3edf330f2c603a9d48c0fcb5699dbfe58964"
    "25c5bac4aee82e57a85aaf4e2513e4f05796b07ba2ee47d80506f8d2c25e50fd"
    "14de71e6c418559302f939b0e1abd576f279c4b2e0feb85c1f28ff18f58891ff"
    "ef132eef2fa09346aee33c28eb130ff28f5b766953334113211996d20011a198"
    "e3fc433f9f2541010ae17c1bf202580f6047472fb36857fe843b19f5984009dd"
    "c324044e847a4f4a0ab34f719595de37252d6235365e9b84392b061085349d73"
    "203a4a13e96f5432ec0fd4a1ee65accdd5e3904df54c1da510b0ff20dcc0c77f"
    "cb2c0e0eb605cb0504db87632cf3d8b4dae6e705769d1de354270123cb11450e"
    "fc60ac47683d7b8d0f811365565fd98c4c8eb936bcab8d069fc33bd801b03ade"
    "a2e1fbc5aa463d08ca19896d2bf59a071b851e6c239052172f296bfb5e724047"
    "90a2181014f3b94a4e97d117b438130368cc39dbb2d198065ae3986547926cd2"
    "162f40a29f0c3c8745c0f50fba3852e566d44575c29d39a03f0cda721984b6f4"
    "40591f355e12d439ff150aab7613499dbd49adabc8676eef023b15b65bfc5ca0"
    "6948109f23f350db82123535eb8a7433bdabcb909271a6ecbcb58b936a88cd4e"
    "8f2e6ff5800175f113253d8fa9ca8885c2f552e657dc603f252e1a8e308f76f0"
    "be79e2fb8f5d5fbbe2e30ecadd220723c8c0aea8078cdfcb3868263ff8f09400"
    "54da48781893a7e49ad5aff4af300cd804a6b6279ab3ff3afb64491c85194aab"
    "760d58a606654f9f4400e8b38591356fbf6425aca26dc85244259ff2b19c41b9"
    "f96f3ca9ec1dde434da7d2d392b905ddf3d1f9af93d1af5950bd493f5aa731b4"
    "056df31bd267b6b90a079831aaf579be0a39013137aac6d404f518cfd4684064"
    "7e78bfe706ca4cf5e9c5453e9f7cfd2b8b4c8d169a44e55c88d4a9a7f9474241"
    "e221af44860018ab0856972e194cd934";

// RFC 9001 A.3: the server's Initial packet.
const std::string kServerInitial =
    "cf000000010008f067a5502a4262b5004075c0d95a482cd0991cd25b0aac406a"
    "5816b6394100f37a1c69797554780bb38cc5a99f5ede4cf73c3ec2493a1839b3"
    "dbcba3f6ea46c5b7684df3548e7ddeb9c3bf9c73cc3f3bded74b562bfb19fb84"
    "022f8ef4cdd93795d77d06edbb7aaf2f58891850abbdca3d20398c276456cbc4"
    "2158407dd074ee";

Endpoint end(uint8_t host, uint16_t port) {
  Endpoint e;
  e.addr = ipv4Address(std::array<uint8_t, 4>{10, 0, 0, host}.data());
  e.port = port;
  return e;
}

}  // namespace

TEST_CASE("quic: the Initial keys of RFC 9001 A.1") {
  const InitialKeys k = initialKeys(kVersion1, connId("8394c8f03e515708"));
  CHECK(toHex(k.client.secret) == "c00cf151ca5be075ed0ebfb5c80323c42d6b7db67881289af4008f1f6c357aea");
  CHECK(toHex(k.client.key) == "1f369613dd76d5467730efcbe3b1a22d");
  CHECK(toHex(k.client.iv) == "fa044b2f42a3fd3b46fb255c");
  CHECK(toHex(k.client.hp) == "9f50449e04a0e810283a1e9933adedd2");
  CHECK(toHex(k.server.secret) == "3c199828fd139efd216c155ad844cc81fb82fa8d7446fa7d78be803acdda951b");
  CHECK(toHex(k.server.key) == "cf3a5331653c364c88f0f379b6067e37");
  CHECK(toHex(k.server.iv) == "0ac1493ca1905853b0bba03e");
  CHECK(toHex(k.server.hp) == "c206b8d9b9f0f37644430b490eeaa314");
}

TEST_CASE("quic: the client's and the server's Initial packets of RFC 9001 A.2 and A.3 open") {
  QuicSession s(nullptr);
  const Bytes client = hex(kClientInitial), server = hex(kServerInitial);
  REQUIRE(client.size() == 1200);
  Datagram d;
  REQUIRE(s.read(end(1, 50000), end(2, 443), client.data(), uint32_t(client.size()), d));
  CHECK(d.connection == 1);
  CHECK(d.from_client);
  REQUIRE(d.packets.size() == 1);
  const Packet& c = d.packets[0];
  CHECK(c.error.empty());
  CHECK(c.decrypted);
  CHECK(c.header.type == PacketType::Initial);
  CHECK(c.header.dcid.hex() == "8394c8f03e515708");
  CHECK(c.packet_number == 2);
  CHECK(c.pn_len == 4);
  // A CRYPTO frame of the 241-byte ClientHello, then 917 bytes of PADDING.
  REQUIRE(c.frames.size() == 2);
  CHECK(c.frames[0].is(frame::kCrypto));
  CHECK(c.frames[0].offset == 0);
  CHECK(c.frames[0].length == 241);
  CHECK(c.frames[1].is(frame::kPadding));
  CHECK(c.frames[1].padding == 917);
  CHECK(s.keys(1).client_random);
  CHECK_FALSE(s.keys(1).cipher);
  // Its transport parameters carry no ack_delay_exponent / max_ack_delay: the defaults.
  CHECK(s.parameters(1, true).ack_delay_exponent == 3);
  CHECK(s.parameters(1, true).max_ack_delay_ms == 25);

  REQUIRE(s.read(end(2, 443), end(1, 50000), server.data(), uint32_t(server.size()), d));
  CHECK(d.connection == 1);  // the client chose a zero-length id: found by address
  CHECK_FALSE(d.from_client);
  REQUIRE(d.packets.size() == 1);
  const Packet& p = d.packets[0];
  CHECK(p.error.empty());
  CHECK(p.decrypted);
  CHECK(p.packet_number == 1);
  CHECK(p.header.scid.hex() == "f067a5502a4262b5");
  REQUIRE(p.frames.size() == 2);
  CHECK(p.frames[0].isAck());
  CHECK(p.frames[0].largest == 0);
  CHECK(p.frames[0].ack_delay == 0);
  REQUIRE(p.frames[0].ranges.size() == 1);
  CHECK(p.frames[0].ranges[0].smallest == 0);
  CHECK(p.frames[1].is(frame::kCrypto));
  CHECK(p.frames[1].length == 90);
  CHECK(s.keys(1).cipher);
  CHECK(s.keys(1).chosen == Cipher::Aes128Gcm);
  // No key log: the next levels stay closed, and say why.
  CHECK_FALSE(s.keys(1).handshake);
  CHECK(s.connections() == 1);
}

TEST_CASE("quic: a changed byte fails the Initial packet's tag, and the packet says so") {
  QuicSession s(nullptr);
  Bytes client = hex(kClientInitial);
  client[600] ^= 1;
  Datagram d;
  REQUIRE(s.read(end(1, 50000), end(2, 443), client.data(), uint32_t(client.size()), d));
  REQUIRE(d.packets.size() == 1);
  CHECK_FALSE(d.packets[0].decrypted);
  CHECK(d.packets[0].error == "decryption failed (wrong keys, or a packet damaged on the way)");
}

TEST_CASE("quic: the ChaCha20-Poly1305 short header packet of RFC 9001 A.5 and its key update") {
  const Bytes secret = hex("9ac312a7f877468ebe69422748ad00a15443f18203a07d6060f688f30f21632b");
  const PacketKeys k = keysFromSecret(Cipher::ChaCha20Poly1305, kVersion1, secret);
  CHECK(toHex(k.key) == "c6d98ff3441c3fe1b2182094f69caa2ed4b716b65488960a7a984979fb23e1c8");
  CHECK(toHex(k.iv) == "e0459b3474bdd0e44a41c144");
  CHECK(toHex(k.hp) == "25a282b9e82f06f21f488917a4fc8f1b73573685608597d0efcb076b0ab7a7a4");
  CHECK(toHex(nextKeys(k).secret) == "1223504755036d556342ee9361d253421a826c9ecdf3c7148684b36b714881f9");
  CHECK(toHex(nextKeys(k).hp) == toHex(k.hp));

  const Bytes packet = hex("4cfe4189655e5cd55c41f69080575d7999c25a5bfb");
  Header h;
  REQUIRE(parseHeader(packet.data(), uint32_t(packet.size()), 0, h).empty());
  CHECK_FALSE(h.long_header);
  Unprotected u;
  REQUIRE(removeHeaderProtection(k, packet.data(), h, u));
  CHECK(u.first == 0x42);
  CHECK(u.pn_len == 3);
  CHECK(u.truncated_pn == 0x00bff4);
  const uint64_t pn = expandPacketNumber(654360563, u.truncated_pn, 24);
  CHECK(pn == 654360564);
  const Bytes header = hex("4200bff4");
  Bytes plain;
  REQUIRE(openPayload(k, pn, header.data(), 4, packet.data() + 4, uint32_t(packet.size() - 4), plain));
  CHECK(toHex(plain) == "01");  // one PING frame
}

TEST_CASE("quic: packet numbers expand as RFC 9000 A.3's example") {
  CHECK(expandPacketNumber(0xa82f30ea, 0x9b32, 16) == 0xa82f9b32);
  CHECK(expandPacketNumber(-1, 0, 8) == 0);
  CHECK(expandPacketNumber(255, 0x00, 8) == 256);
  CHECK(expandPacketNumber(300, 0xff, 8) == 255);
}

TEST_CASE("quic: ACK ranges, STREAM, DATAGRAM and malformed frames") {
  // ACK largest 20, delay 5, two more ranges: 20-18, gap 1 -> 15-15, gap 0 -> 13-12.
  const Bytes ack =
      hex("02"
          "14"
          "05"
          "02"
          "02"
          "01"
          "00"
          "00"
          "01");
  std::vector<Frame> f;
  REQUIRE(parseFrames(ack.data(), uint32_t(ack.size()), f).empty());
  REQUIRE(f.size() == 1);
  REQUIRE(f[0].ranges.size() == 3);
  CHECK((f[0].ranges[0].smallest == 18 && f[0].ranges[0].largest == 20));
  CHECK((f[0].ranges[1].smallest == 15 && f[0].ranges[1].largest == 15));
  CHECK((f[0].ranges[2].smallest == 12 && f[0].ranges[2].largest == 13));
  CHECK(f[0].ack_delay == 5);
  // STREAM with offset, length and FIN; DATAGRAM without length runs to the end.
  const Bytes sd =
      hex("0f"
          "04"
          "4064"
          "03"
          "616263"
          "30"
          "7878");
  f.clear();
  REQUIRE(parseFrames(sd.data(), uint32_t(sd.size()), f).empty());
  REQUIRE(f.size() == 2);
  CHECK(f[0].isStream());
  CHECK(f[0].stream_id == 4);
  CHECK(f[0].offset == 100);
  CHECK(f[0].length == 3);
  CHECK(f[0].fin);
  CHECK(f[1].isDatagram());
  CHECK(f[1].length == 2);
  // An ACK range below packet 0, a frame cut short, an unknown type.
  f.clear();
  CHECK(parseFrames(hex("0202000003").data(), 5, f) == "ACK frame: malformed");
  f.clear();
  CHECK(parseFrames(hex("0b0401").data(), 3, f) == "STREAM frame: malformed");
  f.clear();
  CHECK(parseFrames(hex("0140").data(), 2, f) == "frame type: truncated");
  CHECK(f.size() == 1);  // the PING before it stays
  f.clear();
  CHECK(parseFrames(hex("21").data(), 1, f) == "unknown frame type 33");
}

TEST_CASE("quic: a datagram that is not QUIC is left alone") {
  QuicSession s(nullptr);
  Datagram d;
  const Bytes shortUnknown = hex("40aabbccdd0011223344556677889900aabbccdd");
  CHECK_FALSE(s.read(end(1, 1), end(2, 2), shortUnknown.data(), uint32_t(shortUnknown.size()), d));
  const Bytes otherVersion = hex("c0ff00001d08aabbccdd00112233000000");
  CHECK_FALSE(s.read(end(1, 1), end(2, 2), otherVersion.data(), uint32_t(otherVersion.size()), d));
  CHECK(s.connections() == 0);
}

TEST_CASE("quic: the key log keeps TLS 1.3's secrets and names a bad line") {
  KeyLog k;
  const std::string random(64, 'a');
  CHECK(k.add("# comment\r\nCLIENT_HANDSHAKE_TRAFFIC_SECRET " + random +
              " 0102\n"
              "CLIENT_RANDOM " +
              random +
              " 0304\n"
              "SERVER_TRAFFIC_SECRET_0 " +
              random + " 0506\n")
            .empty());
  KeyLog::Random r;
  r.fill(0xaa);
  REQUIRE(k.find(r) != nullptr);
  CHECK(toHex((*k.find(r))[size_t(Secret::ClientHandshake)]) == "0102");
  CHECK(toHex((*k.find(r))[size_t(Secret::ServerApplication)]) == "0506");
  CHECK((*k.find(r))[size_t(Secret::ClientApplication)].empty());
  CHECK(k.connections() == 1);
  CHECK(k.add("\nSERVER_TRAFFIC_SECRET_0 abcd 0506\n") == "line 2: the client random is not 64 hex digits");
  CHECK(k.add("CLIENT_TRAFFIC_SECRET_0 " + random + " xyz\n") == "line 1: the secret is not hex");
  CHECK(k.add("CLIENT_TRAFFIC_SECRET_0 " + random + "\n") ==
        "line 1: not '<label> <client random> <secret>'");
  CHECK(k.addFile("/nonexistent/keys.log") == "cannot read the key log /nonexistent/keys.log");
}

TEST_CASE("quic: a key log still being written loses only its half-written last line") {
  const std::string path = "/tmp/rudp-keylog-growing-" + std::to_string(::getpid());
  const std::string random(64, 'b');
  {
    std::FILE* f = std::fopen(path.c_str(), "w");
    REQUIRE(f);
    std::fputs(
        ("CLIENT_TRAFFIC_SECRET_0 " + random + " 0a0b\nSERVER_TRAFFIC_SECRET_0 " + random + " 0c").c_str(),
        f);
    std::fclose(f);
  }
  KeyLog growing, whole;
  CHECK(growing.addFile(path, true).empty());
  KeyLog::Random r;
  r.fill(0xbb);
  REQUIRE(growing.find(r));
  CHECK(toHex((*growing.find(r))[size_t(Secret::ClientApplication)]) == "0a0b");
  CHECK((*growing.find(r))[size_t(Secret::ServerApplication)].empty());
  // Named by the user, the file is read whole: its last line needs no end.
  CHECK(whole.addFile(path).empty());
  CHECK(toHex((*whole.find(r))[size_t(Secret::ServerApplication)]) == "0c");
  std::remove(path.c_str());
}
