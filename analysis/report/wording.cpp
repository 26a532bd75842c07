#include "report/wording.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdarg>
#include <cstdio>

namespace rudp::report {

std::string format(const char* fmt, ...) {
  char buf[256];
  va_list ap;
  va_start(ap, fmt);
  int n = std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n < 0) return {};
  if (static_cast<size_t>(n) < sizeof buf) return std::string(buf, static_cast<size_t>(n));
  std::string out(static_cast<size_t>(n) + 1, '\0');
  va_start(ap, fmt);
  std::vsnprintf(out.data(), out.size(), fmt, ap);
  va_end(ap);
  out.resize(static_cast<size_t>(n));
  return out;
}

double secondsSince(int64_t ts_ns, int64_t capture_start_ns) {
  return static_cast<double>(ts_ns - capture_start_ns) / 1e9;
}

std::string secondsAt(int64_t ts_ns, int64_t capture_start_ns) {
  return format("%.3f s", secondsSince(ts_ns, capture_start_ns));
}

std::string durationText(double ms) {
  if (ms < 10) return format("%.1f ms", ms);
  if (ms < 999.5) return format("%.0f ms", ms);
  const double s = ms / 1000;
  if (s < 9.995) return format("%.2f s", s);
  if (s < 99.95) return format("%.1f s", s);
  if (s < 119.5) return format("%.0f s", s);
  const double minutes = std::floor(s / 60);
  return format("%.0f min %.0f s", minutes, std::floor(s - minutes * 60));
}

std::string percentText(double fraction) {
  const double pct = fraction * 100;
  return format(pct < 1 ? "%.2f %%" : "%.1f %%", pct);
}

std::string inferredFieldText(const ana::InferredField& f) {
  const char* order = f.size == 1 ? "" : f.little_endian ? " LE" : " BE";
  std::string text = format("u%d%s at offset %d, ", 8 * f.size, order, f.offset);
  if (f.unit_hz == 1e3)
    text += "in ms, ";
  else if (f.unit_hz == 1e6)
    text += "in \u00b5s, ";
  else if (f.unit_hz > 0)
    text += format("%g ticks per second, ", f.unit_hz);
  if (f.echo_next) text += "the next number expected, ";
  return text + percentText(f.fit) + " of packets fit";
}

std::string rateChangeWords(const ana::RateChangeEvent& e) {
  return format("%s %.1f packets/s (usually %.0f)",
                e.kind == ana::RateChangeKind::Drop ? "rate fell to" : "burst of", e.rate_hz, e.usual_hz);
}

std::string bytesText(uint64_t bytes) {
  const double b = static_cast<double>(bytes);
  if (bytes < 1000) return format("%" PRIu64 " B", bytes);
  if (b < 1e6) return format("%.1f kB", b / 1e3);
  if (b < 1e9) return format("%.1f MB", b / 1e6);
  return format("%.2f GB", b / 1e9);
}

const char* directionWords(Direction d) {
  return d == Direction::ClientToServer ? "client\u2192server" : "server\u2192client";
}

std::string connectionLabel(const ConnectionSummary& c) {
  return "conn " + std::to_string(c.id) + " (client " + c.client + ")";
}

const char* rttSpanWords(ana::RttSpan span) {
  switch (span) {
    case ana::RttSpan::RoundTrip: return "RTT";
    case ana::RttSpan::ReceiverDelay: return "ack delay at the receiver";
    case ana::RttSpan::BeyondCapture: return "RTT beyond the capture point";
    case ana::RttSpan::Unknown: break;
  }
  return "RTT (vantage unknown)";
}

bool capturedAtSender(ana::Vantage v, Direction d) {
  return (v == ana::Vantage::Client && d == Direction::ClientToServer) ||
         (v == ana::Vantage::Server && d == Direction::ServerToClient);
}

double lossFraction(const ana::DirectionMetrics& m, ana::Vantage v, Direction d) {
  // Distinct seqs in the capture are the data copies less the repeated ones;
  // away from the sender the lost seqs never reached the capture, so they
  // are added to get what was sent.
  const uint64_t copies = m.data_packets > m.retransmissions ? m.data_packets - m.retransmissions : 0;
  const uint64_t sent = capturedAtSender(v, d) ? copies : copies + m.lost;
  if (sent == 0) return 0;
  return std::min(1.0, static_cast<double>(m.lost) / static_cast<double>(sent));
}

}  // namespace rudp::report
