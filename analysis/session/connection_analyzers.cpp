#include "session/connection_analyzers.h"

#include <algorithm>

namespace rudp {

ConnectionAnalyzers::ConnectionAnalyzers(const std::vector<ProtoInfo>& protos, const ana::AnalyzerConfig& cfg)
    : protos_(protos), cfg_(cfg) {}

ConnectionAnalyzers::~ConnectionAnalyzers() = default;

void ConnectionAnalyzers::contractPacket(const Connection& c, uint64_t frame, int64_t ts_ns, Direction dir,
                                         const std::vector<Segment>& segs, const DecodedPacket& p) {
  if (c.proto_index < 0 || !protos_[c.proto_index].has_contract) return;
  current_ = c.id;
  Entry& e = live_[c.id];
  if (!e.contract)
    e.contract = std::make_unique<ana::ContractAnalyzer>(protos_[c.proto_index].contract, cfg_, this);
  e.contract->onPacket(frame, ts_ns, dir, segs.data(), segs.size(), p.origlen,
                       p.l3 == L3::IPv4 ? int32_t{p.ip_id} : -1);
}

void ConnectionAnalyzers::tcpPacket(const Connection& c, uint64_t frame, int64_t ts_ns, Direction dir,
                                    const DecodedPacket& p) {
  current_ = c.id;
  Entry& e = live_[c.id];
  if (!e.tcp) e.tcp = std::make_unique<ana::TcpAnalyzer>(cfg_, this);
  e.tcp->onPacket(frame, ts_ns, dir, p, p.origlen);
}

void ConnectionAnalyzers::finishEntry(int64_t connId, Entry& e) {
  current_ = connId;
  if (e.contract)
    out_->metrics.emplace_back(connId, e.contract->finish());
  else if (e.tcp)
    out_->metrics.emplace_back(connId, e.tcp->finish());
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
