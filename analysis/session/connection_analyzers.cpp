#include "session/connection_analyzers.h"

#include <algorithm>

namespace rudp {

ConnectionAnalyzers::ConnectionAnalyzers(const std::vector<ProtoInfo>& protos, const ana::AnalyzerConfig& cfg)
    : protos_(protos), cfg_(cfg) {}

ConnectionAnalyzers::~ConnectionAnalyzers() = default;

namespace {
ana::AddressEvidence addressEvidence(const Connection& c) {
  return {isPrivateAddress(c.client.ip), isPrivateAddress(c.server.ip)};
}
}  // namespace

template <class A, class Make>
A& ConnectionAnalyzers::analyzer(int64_t connId, Make make) {
  current_ = connId;
  Entry& e = live_[connId];
  if (auto* a = std::get_if<std::unique_ptr<A>>(&e)) return **a;
  e = make();
  return *std::get<std::unique_ptr<A>>(e);
}

void ConnectionAnalyzers::contractPacket(const Connection& c, uint64_t frame, int64_t ts_ns, Direction dir,
                                         const std::vector<Segment>& segs, const TwoLevelDatagram& datagram,
                                         const DecodedPacket& p) {
  if (c.proto_index < 0 || !protos_[c.proto_index].has_contract) return;
  const Contract& contract = protos_[c.proto_index].contract;
  if (contract.twoLevel()) {
    auto& a = analyzer<ana::TwoLevelAnalyzer>(
        c.id, [&] { return std::make_unique<ana::TwoLevelAnalyzer>(contract.two_level, cfg_, this); });
    a.onPacket(frame, ts_ns, dir, datagram, p.origlen);
    return;
  }
  auto& a = analyzer<ana::ContractAnalyzer>(c.id, [&] {
    return std::make_unique<ana::ContractAnalyzer>(protos_[c.proto_index].contract, cfg_, this);
  });
  a.onPacket(frame, ts_ns, dir, segs.data(), segs.size(), p.origlen,
             p.l3 == L3::IPv4 ? int32_t{p.ip_id} : -1);
}

void ConnectionAnalyzers::tcpPacket(const Connection& c, uint64_t frame, int64_t ts_ns, Direction dir,
                                    const DecodedPacket& p) {
  auto& a = analyzer<ana::TcpAnalyzer>(c.id, [&] { return std::make_unique<ana::TcpAnalyzer>(cfg_, this); });
  a.onPacket(frame, ts_ns, dir, p, p.origlen);
}

void ConnectionAnalyzers::udpPacket(const Connection& c, uint64_t frame, int64_t ts_ns, Direction dir,
                                    const DecodedPacket& p) {
  auto& a = analyzer<ana::TimingAnalyzer>(
      c.id, [&] { return std::make_unique<ana::TimingAnalyzer>(cfg_, this, addressEvidence(c)); });
  a.onPacket(frame, ts_ns, dir, p.origlen, p.ip_ttl, p.payload, p.payload_len);
}

void ConnectionAnalyzers::quicPacket(const Connection& c, uint64_t frame, int64_t ts_ns, Direction dir,
                                     const quic::Datagram& d, const quic::TransportParameters& senderParams,
                                     const DecodedPacket& p) {
  auto& a = analyzer<ana::QuicAnalyzer>(
      c.id, [&] { return std::make_unique<ana::QuicAnalyzer>(cfg_, this, addressEvidence(c)); });
  a.onDatagram(frame, ts_ns, dir, d, p.origlen, senderParams, p.ip_ttl);
}

void ConnectionAnalyzers::finishEntry(int64_t connId, Entry& e) {
  current_ = connId;
  std::visit(
      [&](auto& a) {
        if constexpr (!std::is_same_v<std::decay_t<decltype(a)>, std::monostate>)
          out_->metrics.emplace_back(connId, a->finish());
      },
      e);
}

void ConnectionAnalyzers::close(int64_t connId) {
  auto it = live_.find(connId);
  if (it == live_.end()) return;
  finishEntry(connId, it->second);
  live_.erase(it);
}

void ConnectionAnalyzers::finish() {
  std::vector<int64_t> ids;
  ids.reserve(live_.size());
  for (const auto& kv : live_) ids.push_back(kv.first);
  std::sort(ids.begin(), ids.end());
  for (int64_t id : ids) finishEntry(id, live_[id]);
  live_.clear();
}

}  // namespace rudp
