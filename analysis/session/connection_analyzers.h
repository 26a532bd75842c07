// One analyzer per connection (contract protocols, TCP, and timing alone for
// UDP flows no dissector claims), fed in capture order; their events are collected into the row batch being
// filled so the store thread writes them with the packets.
#pragma once
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "analyzers/contract_analyzer.h"
#include "analyzers/quic_analyzer.h"
#include "analyzers/tcp_analyzer.h"
#include "analyzers/timing_analyzer.h"
#include "analyzers/two_level_analyzer.h"
#include "core/proto_info.h"
#include "flow/connection.h"
#include "session/store_thread.h"

namespace rudp {

class ConnectionAnalyzers : public ana::EventSink {
 public:
  ConnectionAnalyzers(const std::vector<ProtoInfo>& protos, const ana::AnalyzerConfig& cfg);
  ~ConnectionAnalyzers() override;

  // Events of the following packets go to `out`.
  void setOutput(RowBatch* out) { out_ = out; }
  // A datagram of a protocol with a contract: `segs` for version 1,
  // `datagram` for version 2 (the two-level model).
  void contractPacket(const Connection& c, uint64_t frame, int64_t ts_ns, Direction dir,
                      const std::vector<Segment>& segs, const TwoLevelDatagram& datagram,
                      const DecodedPacket& p);
  void tcpPacket(const Connection& c, uint64_t frame, int64_t ts_ns, Direction dir, const DecodedPacket& p);
  // A datagram of a "udp" connection (no dissector claimed it). When a
  // protocol adopts the connection later its contract analyzer replaces this.
  void udpPacket(const Connection& c, uint64_t frame, int64_t ts_ns, Direction dir, const DecodedPacket& p);
  // A QUIC datagram (decode/quic_session.h) and the transport parameters of
  // its sender, whose ACK delays it carries.
  void quicPacket(const Connection& c, uint64_t frame, int64_t ts_ns, Direction dir, const quic::Datagram& d,
                  const quic::TransportParameters& senderParams, const DecodedPacket& p);
  // Finishes the analyzer of a connection the flow table closed; its
  // metrics go to the output and its memory is freed.
  void close(int64_t connId);
  // Finishes every remaining analyzer; events and metrics go to the output.
  void finish();

  void onRtt(const ana::RttEvent& e) override { out_->rtts.emplace_back(current_, e); }
  void onRetransmission(const ana::RetransmissionEvent& e) override { out_->retx.emplace_back(current_, e); }
  void onLoss(const ana::LossEvent& e) override { out_->losses.emplace_back(current_, e); }
  void onStall(const ana::StallEvent& e) override { out_->stalls.emplace_back(current_, e); }
  void onRate(const ana::RateEvent& e) override { out_->rates.emplace_back(current_, e); }

 private:
  using Entry = std::variant<std::monostate, std::unique_ptr<ana::ContractAnalyzer>,
                             std::unique_ptr<ana::TwoLevelAnalyzer>, std::unique_ptr<ana::TcpAnalyzer>,
                             std::unique_ptr<ana::TimingAnalyzer>, std::unique_ptr<ana::QuicAnalyzer>>;
  // The connection's analyzer of type A, made by `make` when it has another.
  template <class A, class Make>
  A& analyzer(int64_t connId, Make make);
  void finishEntry(int64_t connId, Entry& e);

  const std::vector<ProtoInfo>& protos_;
  ana::AnalyzerConfig cfg_;
  std::unordered_map<int64_t, Entry> live_;  // by connection id: open connections only
  RowBatch* out_ = nullptr;
  int64_t current_ = 0;
};

}  // namespace rudp
