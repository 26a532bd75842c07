// Maps packets to connections and keeps per-direction counters.
#pragma once
#include <memory>
#include <vector>

#include "flow/connection.h"
#include "flow/segment.h"

namespace rudp {

class ConnectionTable {
 public:
  ConnectionTable();
  ~ConnectionTable();

  struct Hit {
    Connection* conn = nullptr;
    Direction dir = Direction::ClientToServer;
  };

  // A datagram a Lua dissector with a contract claimed. `first` is its first
  // segment (carrying the connection id and role when the contract has them).
  Hit contractPacket(int protoIndex, const std::string& protoName, const Segment* first,
                     const DecodedPacket& p);
  Hit tcpPacket(const DecodedPacket& p);
  Hit udpPacket(const DecodedPacket& p);  // UDP no dissector claimed

  // Counts one packet on the connection.
  static void count(const Hit& h, const DecodedPacket& p, uint32_t segments, bool malformed);

  const std::vector<std::unique_ptr<Connection>>& connections() const { return conns_; }

 private:
  struct Key;
  struct KeyHash;
  struct Index;
  Hit byPair(int keyProto, const std::string& name, int protoIndex, const DecodedPacket& p,
             bool srcIsClientIfNew, bool handshake);
  Hit create(const std::string& proto, int protoIndex, const Endpoint& client,
             const Endpoint& server, int64_t ts);
  std::vector<std::unique_ptr<Connection>> conns_;
  std::unique_ptr<Index> index_;
};

}  // namespace rudp
