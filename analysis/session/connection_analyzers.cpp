#include "session/connection_analyzers.h"

#include <algorithm>

namespace rudp {

ConnectionAnalyzers::ConnectionAnalyzers(const std::vector<ProtoInfo>& protos,
                                         const ana::AnalyzerConfig& cfg)
    : protos_(protos), cfg_(cfg) {}

ConnectionAnalyzers::~ConnectionAnalyzers() = default;

ConnectionAnalyzers::Entry* ConnectionAnalyzers::entry(int64_t connId, int64_t ts_ns) {
  if (static_cast<size_t>(connId) > byConn_.size()) byConn_.resize(static_cast<size_t>(connId));
  Entry& e = byConn_[static_cast<size_t>(connId - 1)];
  if (e.retired) return nullptr;
  if (!e.contract && !e.tcp) active_.push_back(connId);
  e.last_ns = std::max(e.last_ns, ts_ns);
  current_ = connId;
  return &e;
}

void ConnectionAnalyzers::contractPacket(const Connection& c, uint64_t frame, int64_t ts_ns,
                                         Direction dir, const std::vector<Segment>& segs,
                                         const DecodedPacket& p) {
  if (c.proto_index < 0 || !protos_[c.proto_index].has_contract) return;
  Entry* e = entry(c.id, ts_ns);
  if (!e) return;
  if (!e->contract)
    e->contract = std::make_unique<ana::ContractAnalyzer>(protos_[c.proto_index].contract, cfg_, this);
  e->contract->onPacket(frame, ts_ns, dir, segs.data(), segs.size(), p.origlen,
                        p.l3 == L3::IPv4 ? int32_t{p.ip_id} : -1);
}

void ConnectionAnalyzers::tcpPacket(const Connection& c, uint64_t frame, int64_t ts_ns,
                                    Direction dir, const DecodedPacket& p) {
  Entry* e = entry(c.id, ts_ns);
  if (!e) return;
  if (!e->tcp) e->tcp = std::make_unique<ana::TcpAnalyzer>(cfg_, this);
  e->tcp->onPacket(frame, ts_ns, dir, p, p.origlen);
}

void ConnectionAnalyzers::finishEntry(int64_t connId, Entry& e) {
  current_ = connId;
  if (e.contract) out_->metrics.emplace_back(connId, e.contract->finish());
  else if (e.tcp) out_->metrics.emplace_back(connId, e.tcp->finish());
  e.contract.reset();
  e.tcp.reset();
  e.retired = true;
}

namespace {
// a - b without overflow: capture timestamps are untrusted and may span the
// whole int64 range.
int64_t gap(int64_t a, int64_t b) {
  int64_t d;
  if (__builtin_sub_overflow(a, b, &d)) return a > b ? INT64_MAX : INT64_MIN;
  return d;
}
}  // namespace

void ConnectionAnalyzers::retireIdle(int64_t now_ns, int64_t idle_ns) {
  // A sweep walks every live analyzer: once per second of capture time is enough.
  if (swept_ && gap(now_ns, lastSweep_ns_) < 1'000'000'000) return;
  swept_ = true;
  lastSweep_ns_ = now_ns;
  auto idle = [&](int64_t id) {
    Entry& e = byConn_[static_cast<size_t>(id - 1)];
    if (gap(now_ns, e.last_ns) < idle_ns) return false;
    finishEntry(id, e);
    return true;
  };
  active_.erase(std::remove_if(active_.begin(), active_.end(), idle), active_.end());
}

void ConnectionAnalyzers::finish() {
  std::sort(active_.begin(), active_.end());
  for (int64_t id : active_) finishEntry(id, byConn_[static_cast<size_t>(id - 1)]);
  active_.clear();
}

}  // namespace rudp
