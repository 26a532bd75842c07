// The one typed reader of a finished database: every query the CLI and the
// GUI make, returning the plain structs of records.h. Not thread-safe: each
// reading thread opens its own StoreReader (SQLite read-only connection).
#pragma once
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "store/frame_condition.h"
#include "store/records.h"

namespace rudp {

class StoreReader {
 public:
  // Opens read-only; throws StoreError unless the database is complete and
  // of this schema version.
  explicit StoreReader(const std::string& dbPath);
  ~StoreReader();
  StoreReader(const StoreReader&) = delete;
  StoreReader& operator=(const StoreReader&) = delete;

  const std::string& path() const;
  CaptureInfo capture();
  AnalysisSettings settings();
  // How a live capture was taken and what it dropped; none for a file.
  std::optional<LiveCaptureRecord> liveCapture();
  std::vector<ProtocolRecord> protocols();

  // Connections in order of id. The summaries come from one table; the
  // records add the analysis (metrics, loss bursts, stalls of both directions).
  std::vector<ConnectionSummary> connections();
  void forEachConnection(const std::function<void(const ConnectionSummary&)>& f);
  std::vector<ConnectionRecord> connectionRecords();
  // One at a time (memory independent of the count).
  void forEachConnectionRecord(const std::function<void(const ConnectionRecord&)>& f);
  std::optional<ConnectionRecord> connection(int64_t id);
  size_t connectionCount();

  // Events of one connection and direction (the direction whose data they
  // are about) within a capture-time range, in time order.
  std::vector<ana::RttEvent> rttSamples(int64_t conn, Direction dir, TimeRange range = {});
  std::vector<ana::RetransmissionEvent> retransmissions(int64_t conn, Direction dir, TimeRange range = {});
  std::vector<ana::LossEvent> losses(int64_t conn, Direction dir, TimeRange range = {});
  // Stalls overlapping the range.
  std::vector<ana::StallEvent> stalls(int64_t conn, Direction dir, TimeRange range = {});
  std::vector<ana::RateEvent> rates(int64_t conn, Direction dir, TimeRange range = {});
  std::map<uint32_t, uint64_t> lossBursts(int64_t conn, Direction dir);
  DataBytes dataBytes(int64_t conn, Direction dir);

  // Packets in frame order.
  std::vector<PacketRecord> packets(const PacketQuery& q);
  void forEachPacket(const PacketQuery& q, const std::function<void(const PacketRecord&)>& f);
  std::optional<PacketRecord> packet(uint64_t frame);
  // The frames meeting `condition`, ascending (a display filter over stored
  // fields), read from the frame index. `cancel` is looked at every 4,096
  // frames; Cancelled then.
  std::vector<uint64_t> framesWhere(const FrameCondition& condition,
                                    const std::atomic<bool>* cancel = nullptr);
  // Why a frame could not be decoded or dissected (packet_errors), in frame order.
  std::vector<std::pair<uint64_t, std::string>> packetErrors(uint64_t firstFrame = 1, size_t limit = 1000);
  // The ICMP errors quoting a datagram of `conn` (0: of any connection), in frame order.
  std::vector<IcmpErrorRecord> icmpErrors(int64_t conn = 0);
  // Where a TCP connection's relative sequence numbers start, per direction,
  // in frame order (tcpSeqBasesAt gives a frame's).
  std::vector<TcpSeqBaseChange> tcpSeqBases(int64_t conn);

 private:
  struct Impl;
  std::unique_ptr<Impl> d;
};

}  // namespace rudp
