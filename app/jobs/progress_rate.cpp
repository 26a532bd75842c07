#include "jobs/progress_rate.h"

namespace rudp::gui {

namespace {
// Below this the rates are noise.
constexpr double kMinMeasuredSeconds = 0.2;
}  // namespace

IngestProgress ProgressRate::update(const rudp::Progress& p, double elapsed_s) {
  if (!m_started) {
    m_started = true;
    m_t0 = elapsed_s;
    m_bytes0 = p.done;
    m_packets0 = p.packets;
  }
  IngestProgress out;
  out.packets = p.packets;
  const bool complete = p.total > 0 && p.done >= p.total;
  out.phase = complete ? IngestProgress::Phase::Finishing : IngestProgress::Phase::Reading;
  if (p.total > 0) out.fraction = double(p.done) / double(p.total);
  if (out.fraction > 1) out.fraction = 1;

  const double dt = elapsed_s - m_t0;
  if (dt < kMinMeasuredSeconds) return out;
  out.packets_per_second = double(p.packets - m_packets0) / dt;
  const double bytesPerSecond = double(p.done - m_bytes0) / dt;
  if (p.total > 0 && bytesPerSecond > 0)
    out.seconds_left = complete ? 0 : double(p.total - p.done) / bytesPerSecond;
  return out;
}

}  // namespace rudp::gui
