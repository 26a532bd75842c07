#include "grudp_talk.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "wire.hpp"

namespace rudp::test {

namespace {

using namespace grudp_sim;

constexpr uint32_t kConnId = 0x5eed1e55, kClientIsn = 1000, kServerIsn = 5000;
constexpr int kRetransmitAfterTicks = 5;

sockaddr_in loopback(uint16_t port) {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return a;
}

uint32_t nowMs() {
  using namespace std::chrono;
  return uint32_t(duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count());
}

class Socket {
 public:
  explicit Socket(uint16_t port) : fd_(socket(AF_INET, SOCK_DGRAM, 0)) {
    sockaddr_in a = loopback(port);
    if (fd_ < 0 || bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0)
      throw std::runtime_error("cannot bind 127.0.0.1:" + std::to_string(port));
    socklen_t len = sizeof a;
    getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
  }
  ~Socket() { close(fd_); }
  uint16_t port() const { return port_; }
  void send(const Header& h, uint16_t to, size_t payload = 0) {
    std::vector<uint8_t> d(kHeaderSize + payload, 'g');
    Header copy = h;
    copy.length = uint16_t(payload);
    encode_header(copy, d.data());
    const sockaddr_in a = loopback(to);
    if (sendto(fd_, d.data(), d.size(), MSG_DONTWAIT, reinterpret_cast<const sockaddr*>(&a), sizeof a) < 0)
      throw std::runtime_error("sendto failed");
  }

 private:
  int fd_;
  uint16_t port_ = 0;
};

// The server's acknowledgement of everything it has received.
Header ackOf(const std::set<uint32_t>& received, uint32_t echoTs, uint32_t nextSeq) {
  Header h;
  h.type = kAck;
  h.flags = uint8_t(kAckFlag | kEcho);
  h.conn_id = kConnId;
  h.seq = nextSeq;
  h.ack = *received.rbegin();
  for (uint32_t i = 0; i < 32; ++i)
    if (received.count(h.ack - 1 - i)) h.ack_bits |= 1u << i;
  h.ts = nowMs();
  h.ts_echo = echoTs;
  h.window = 64;
  return h;
}

}  // namespace

uint16_t freeUdpPort() { return Socket(0).port(); }

GrudpTalkCounts talkGrudp(const GrudpTalk& talk) {
  Socket server(talk.port), client(0);
  GrudpTalkCounts n;
  std::set<uint32_t> received;  // by the server

  Header connect{kConnect, uint8_t(kReliable), kConnId, kClientIsn, 0, 0, nowMs(), 0, 0, 0, 64};
  client.send(connect, server.port());
  ++n.clientPackets;
  received.insert(kClientIsn);
  Header accept{kAccept,    uint8_t(kReliable | kAckFlag | kEcho),
                kConnId,    kServerIsn,
                kClientIsn, 0,
                nowMs(),    connect.ts,
                0,          0,
                64};
  server.send(accept, client.port());
  ++n.serverPackets;
  ++n.echoedAcks;

  std::vector<std::pair<int, Header>> pending;  // (tick to send again, copy)
  for (int i = 0; i < talk.dataPackets && !(talk.stop && talk.stop->load()); ++i) {
    Header data{kData,      uint8_t(kReliable | kAckFlag),
                kConnId,    kClientIsn + 1 + uint32_t(i),
                kServerIsn, 0,
                nowMs(),    0,
                0,          0,
                64};
    client.send(data, server.port(), 48);
    ++n.clientPackets;
    if (talk.dropEvery > 0 && i % talk.dropEvery == talk.dropEvery / 2) {
      pending.push_back({i + kRetransmitAfterTicks, data});
    } else {
      received.insert(data.seq);
      server.send(ackOf(received, data.ts, kServerIsn + 1), client.port());
      ++n.serverPackets;
      ++n.echoedAcks;
    }
    for (auto it = pending.begin(); it != pending.end();) {
      if (it->first != i) {
        ++it;
        continue;
      }
      Header copy = it->second;
      copy.ts = nowMs();
      client.send(copy, server.port(), 48);
      ++n.clientPackets;
      ++n.retransmissions;
      received.insert(copy.seq);
      server.send(ackOf(received, copy.ts, kServerIsn + 1), client.port());
      ++n.serverPackets;
      ++n.echoedAcks;
      it = pending.erase(it);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(talk.tickMs));
  }
  return n;
}

}  // namespace rudp::test
