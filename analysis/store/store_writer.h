// The single writer of a capture's database.
//
// Results are written to "<db>.partial" and renamed over "<db>" only when
// complete, so an interrupted run leaves the previous result untouched and
// the partial file says complete = 0.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "core/proto_info.h"
#include "flow/connection.h"
#include "flow/icmp_echoes.h"
#include "flow/segment.h"
#include "flow/tcp_notes.h"
#include "store/records.h"
#include "store/sqlite.h"

namespace rudp {

struct PacketRow {
  uint64_t frame = 0;
  int64_t ts_ns = 0;
  int64_t conn = 0;  // 0 = no connection
  Direction dir = Direction::ClientToServer;
  uint64_t file_offset = 0;
  uint32_t caplen = 0, origlen = 0;
  int status = 0;  // store::PacketStatus bits
  // TCP packets have no contract segments; their header fields go here.
  bool tcp = false;
  TcpHeader tcp_header;
  uint32_t tcp_payload = 0;
  TcpNotes tcp_notes;  // Wireshark's analysis notes for this frame
  // The directions (bit 0: client to server) whose relative-number base
  // this frame changed, to tcp_base[dir].
  uint8_t tcp_new_bases = 0;
  uint32_t tcp_base[2] = {};
  std::optional<EchoRequest> echo_request;  // an echo reply: the request it answers
};

class StoreWriter {
 public:
  explicit StoreWriter(const std::string& dbPath);  // throws StoreError
  ~StoreWriter();                                   // without finish(): closes and removes the partial file

  void addProtocols(const std::vector<ProtoInfo>& protos);
  // The settings the figures depend on (meta), so readers can label them and
  // later runs can tell whether the analysis still stands (session/reuse.h).
  void addSettings(const AnalysisSettings& settings);
  void addLiveCapture(const LiveCaptureRecord& live);
  void addPacket(const PacketRow& row, const Segment* segs, size_t n);
  void addPacket(const PacketRow& row, const std::vector<Segment>& segs) {
    addPacket(row, segs.data(), segs.size());
  }
  // Rows are buffered and inserted 16 per statement; flushPackets() writes
  // the rest (finish() does too).
  void flushPackets();
  void addPacketError(uint64_t frame, const std::string& message);
  void addIcmpError(const IcmpErrorRecord& e);
  // A connection that will see no more packets (closed early; the rest come
  // with finish()).
  void addConnection(const Connection& c);
  // Writes the capture row and the connections still open, marks the result
  // complete and atomically replaces the database at dbPath.
  void finish(const CaptureInfo& capture, const std::vector<std::unique_ptr<Connection>>& conns);

  const std::string& path() const { return final_; }
  // For the other writers of this database (AnalysisWriter): statements are
  // prepared on it and every inserted row is counted with tick().
  sql::Database& database();
  void tick();

 private:
  struct Impl;
  std::unique_ptr<Impl> d;
  std::string final_, partial_;
};

}  // namespace rudp
