#include "jobs/progress_rate.h"

namespace rudp::gui {

namespace {
// Below this the rates are noise.
constexpr double kMinMeasuredSeconds = 0.2;
constexpr double kWindowSeconds = 3.0;
}  // namespace

IngestProgress ProgressRate::update(const rudp::Progress& p, double elapsed_s) {
  m_samples.push_back({elapsed_s, p.done, p.packets});
  while (m_samples.size() > 2 && elapsed_s - m_samples[1].t >= kWindowSeconds) m_samples.pop_front();
  const Sample& from = m_samples.front();
  IngestProgress out;
  out.packets = p.packets;
  const bool complete = p.total > 0 && p.done >= p.total;
  out.phase = complete ? IngestProgress::Phase::Finishing : IngestProgress::Phase::Reading;
  if (p.total > 0) out.fraction = double(p.done) / double(p.total);
  if (out.fraction > 1) out.fraction = 1;

  const double dt = elapsed_s - from.t;
  if (dt < kMinMeasuredSeconds) return out;
  out.packets_per_second = double(p.packets - from.packets) / dt;
  const double bytesPerSecond = double(p.done - from.bytes) / dt;
  if (p.total > 0 && bytesPerSecond > 0)
    out.seconds_left = complete ? 0 : double(p.total - p.done) / bytesPerSecond;
  return out;
}

}  // namespace rudp::gui
