// Turns the core's byte/packet counts into the figures a person reads:
// packets per second and the time left, estimated from the bytes read so far
// (the packet count of the whole file is not known until the end).
#pragma once
#include <deque>

#include "core/progress.h"
#include "jobs/ingest_progress.h"

namespace rudp::gui {

class ProgressRate {
 public:
  // `elapsed_s`: seconds since the ingest started.
  IngestProgress update(const rudp::Progress& p, double elapsed_s);

 private:
  struct Sample {
    double t;
    quint64 bytes, packets;
  };
  // Rates over the last few seconds of reports: the first reports (pipeline
  // warming up, dissectors loading) stop counting once there are newer ones.
  std::deque<Sample> m_samples;
};

}  // namespace rudp::gui
