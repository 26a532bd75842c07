#include "models/statistics_data.h"

#include "models/connection_figures.h"
#include "models/record_text.h"
#include "store/store_reader.h"

namespace rudp::gui {

namespace {
DirectionStatistics directionStatistics(StoreReader& reader, const ConnectionRecord& r, Direction d) {
  DirectionStatistics s;
  const ana::DirectionMetrics* m = analysedDirection(r, d);
  if (!m) return s;
  s.analysed = true;
  s.timing_only = r.metrics.timing_only;
  s.headers_read = r.metrics.headersRead();
  s.counter_found = m->seq_field.found();
  s.clock_found = m->ts_field.found();
  for (const ana::RttEvent& e : reader.rttSamples(r.summary.id, d)) s.rtt_ms.push_back(e.rtt_ms);
  s.rtt = m->rtt;
  s.loss_bursts = m->loss_bursts;
  s.mean_loss_burst = m->mean_loss_burst;
  s.lost = m->lost;
  s.jitter_ms = m->jitter_ms;
  s.gaps = m->gaps;
  for (const IcmpErrorRecord& e : r.icmp_errors)
    if (e.dir == d) s.icmp_errors.push_back(e);
  return s;
}
}  // namespace

StatisticsData loadStatistics(StoreReader& reader, int64_t conn) {
  StatisticsData data;
  const std::optional<ConnectionRecord> r = reader.connection(conn);
  if (!r) return data;
  data.conn = conn;
  data.protocol = protocolText(*r).toStdString();
  data.client = r->summary.client;
  data.server = r->summary.server;
  data.capture_start_ns = reader.capture().first_ts_ns;
  data.settings = reader.settings();
  for (Direction d : {Direction::ClientToServer, Direction::ServerToClient})
    data.dir[static_cast<int>(d)] = directionStatistics(reader, *r, d);
  data.stalls = stallRowsOf(*r);
  return data;
}

}  // namespace rudp::gui
