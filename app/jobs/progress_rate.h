// Turns the core's byte/packet counts into the figures a person reads:
// packets per second and the time left, estimated from the bytes read so far
// (the packet count of the whole file is not known until the end).
#pragma once
#include "core/progress.h"
#include "jobs/ingest_progress.h"

namespace rudp::gui {

class ProgressRate {
 public:
  // `elapsed_s`: seconds since the ingest started.
  IngestProgress update(const rudp::Progress& p, double elapsed_s);

 private:
  // Rates are measured from the first report on, so that opening the file and
  // loading the dissectors do not count as slow reading.
  bool m_started = false;
  double m_t0 = 0;
  quint64 m_bytes0 = 0, m_packets0 = 0;
};

}  // namespace rudp::gui
