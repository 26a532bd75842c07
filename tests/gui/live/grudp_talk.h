// A GRUDP v1 conversation over real UDP sockets on loopback, for the live
// capture tests: a handshake, then the client's reliable DATA at a tick
// rate, each acknowledged by the server's ACK (echoing its ts) except every
// `dropEvery`-th one, which the server ignores until the client sends it
// again 5 ticks later. Counts are exact, so a capture of it can be checked
// packet by packet.
#pragma once
#include <atomic>
#include <cstdint>

namespace rudp::test {

struct GrudpTalk {
  uint16_t port = 0;  // the server's, on 127.0.0.1
  int dataPackets = 200;
  int dropEvery = 20;  // 0: none
  int tickMs = 10;
  const std::atomic<bool>* stop = nullptr;  // ends the talk early
};

struct GrudpTalkCounts {
  uint64_t clientPackets = 0, serverPackets = 0;  // datagrams sent
  uint64_t retransmissions = 0;                   // client copies sent again
  uint64_t echoedAcks = 0;                        // server packets echoing a client ts
};

GrudpTalkCounts talkGrudp(const GrudpTalk& talk);

// A UDP port on 127.0.0.1 nobody is bound to right now.
uint16_t freeUdpPort();

}  // namespace rudp::test
