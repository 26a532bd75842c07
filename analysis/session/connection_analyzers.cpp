#include "session/connection_analyzers.h"

namespace rudp {

ConnectionAnalyzers::ConnectionAnalyzers(const std::vector<ProtoInfo>& protos,
                                         const ana::AnalyzerConfig& cfg)
    : protos_(protos), cfg_(cfg) {}

ConnectionAnalyzers::~ConnectionAnalyzers() = default;

ConnectionAnalyzers::Entry& ConnectionAnalyzers::entry(int64_t connId) {
  if (static_cast<size_t>(connId) > byConn_.size()) byConn_.resize(static_cast<size_t>(connId));
  return byConn_[static_cast<size_t>(connId - 1)];
}

void ConnectionAnalyzers::contractPacket(const Connection& c, uint64_t frame, int64_t ts_ns,
                                         Direction dir, const std::vector<Segment>& segs,
                                         const DecodedPacket& p) {
  if (c.proto_index < 0 || !protos_[c.proto_index].has_contract) return;
  Entry& e = entry(c.id);
  if (!e.contract)
    e.contract = std::make_unique<ana::ContractAnalyzer>(protos_[c.proto_index].contract, cfg_, this);
  current_ = c.id;
  e.contract->onPacket(frame, ts_ns, dir, segs.data(), segs.size(), p.origlen,
                       p.l3 == L3::IPv4 ? int32_t{p.ip_id} : -1);
}

void ConnectionAnalyzers::tcpPacket(const Connection& c, uint64_t frame, int64_t ts_ns,
                                    Direction dir, const DecodedPacket& p) {
  Entry& e = entry(c.id);
  if (!e.tcp) e.tcp = std::make_unique<ana::TcpAnalyzer>(cfg_, this);
  current_ = c.id;
  e.tcp->onPacket(frame, ts_ns, dir, p, p.origlen);
}

std::vector<std::pair<int64_t, ana::ConnectionMetrics>> ConnectionAnalyzers::finish() {
  std::vector<std::pair<int64_t, ana::ConnectionMetrics>> out;
  for (size_t i = 0; i < byConn_.size(); ++i) {
    current_ = static_cast<int64_t>(i + 1);
    Entry& e = byConn_[i];
    if (e.contract) out.emplace_back(current_, e.contract->finish());
    else if (e.tcp) out.emplace_back(current_, e.tcp->finish());
  }
  return out;
}

}  // namespace rudp
