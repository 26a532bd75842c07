#include "session/store_thread.h"

namespace rudp {

void writeRowBatch(StoreWriter& writer, AnalysisWriter& analysis, const RowBatch& b) {
  for (size_t i = 0; i < b.rows.size(); ++i) {
    const uint32_t end = i + 1 < b.rows.size() ? b.seg_begin[i + 1] : static_cast<uint32_t>(b.segs.size());
    writer.addPacket(b.rows[i], b.segs.data() + b.seg_begin[i], end - b.seg_begin[i]);
  }
  for (const auto& [frame, msg] : b.errors) writer.addPacketError(frame, msg);
  for (const IcmpErrorRecord& e : b.icmp_errors) writer.addIcmpError(e);
  for (const auto& [conn, e] : b.rtts) analysis.rtt(conn, e);
  for (const auto& [conn, e] : b.retx) analysis.retransmission(conn, e);
  for (const auto& [conn, e] : b.losses) analysis.loss(conn, e);
  for (const auto& [conn, e] : b.stalls) analysis.stall(conn, e);
  for (const auto& [conn, e] : b.rates) analysis.rate(conn, e);
  for (const auto& [conn, m] : b.metrics) analysis.metrics(conn, m);
  writer.flushPackets();
  for (const auto& c : b.closed) writer.addConnection(*c);
}

}  // namespace rudp
