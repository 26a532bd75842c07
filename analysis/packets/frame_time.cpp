#include "packets/frame_time.h"

#include <cinttypes>
#include <cstdio>
#include <ctime>

namespace rudp {

namespace {

constexpr int64_t kNsPerSecond = 1'000'000'000;

int64_t power10(int n) {
  int64_t p = 1;
  while (n-- > 0) p *= 10;
  return p;
}

// ".123456" for `digits` 6; "" for 0.
std::string fraction(int64_t ns_in_second, int digits) {
  if (digits <= 0) return {};
  if (digits > 9) digits = 9;
  char buf[24];
  std::snprintf(buf, sizeof buf, ".%0*" PRId64, digits, ns_in_second / power10(9 - digits));
  return buf;
}

// Seconds and nanoseconds with 0 <= ns < 1e9 (floor division).
void split(int64_t ts_ns, int64_t& seconds, int64_t& ns) {
  seconds = ts_ns / kNsPerSecond;
  ns = ts_ns % kNsPerSecond;
  if (ns < 0) {
    ns += kNsPerSecond;
    --seconds;
  }
}

std::string calendar(int64_t ts_ns, bool utc, const char* pattern, int digits) {
  int64_t seconds = 0, ns = 0;
  split(ts_ns, seconds, ns);
  const std::time_t t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  if (!(utc ? gmtime_r(&t, &tm) : localtime_r(&t, &tm))) return "[time out of range]";
  char buf[64];
  std::strftime(buf, sizeof buf, pattern, &tm);
  return buf + fraction(ns, digits);
}

}  // namespace

const std::vector<TimeFormatInfo>& timeFormats() {
  static const std::vector<TimeFormatInfo> formats = {
      {TimeFormat::DateTimeOfDay, "ad", "Date and Time of Day"},
      {TimeFormat::YearDayTime, "adoy", "Year, Day of Year, and Time of Day"},
      {TimeFormat::TimeOfDay, "a", "Time of Day"},
      {TimeFormat::Epoch, "e", "Seconds Since 1970-01-01"},
      {TimeFormat::Relative, "r", "Seconds Since Beginning of Capture"},
      {TimeFormat::DeltaCaptured, "d", "Seconds Since Previous Captured Packet"},
      {TimeFormat::DeltaDisplayed, "dd", "Seconds Since Previous Displayed Packet"},
      {TimeFormat::UtcDateTimeOfDay, "ud", "UTC Date and Time of Day"},
      {TimeFormat::UtcYearDayTime, "udoy", "UTC Year, Day of Year, and Time of Day"},
      {TimeFormat::UtcTimeOfDay, "u", "UTC Time of Day"},
  };
  return formats;
}

std::string formatSeconds(int64_t ns, int digits) {
  const bool negative = ns < 0;
  // Cut toward zero: the magnitude's digits, then the sign.
  const uint64_t magnitude = negative ? uint64_t(0) - uint64_t(ns) : uint64_t(ns);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%s%" PRIu64, negative ? "-" : "", magnitude / kNsPerSecond);
  return buf + fraction(int64_t(magnitude % kNsPerSecond), digits);
}

std::string formatFrameTime(TimeFormat format, const FrameTimes& t, int digits) {
  switch (format) {
    case TimeFormat::Relative: return formatSeconds(t.ts_ns - t.first_ns, digits);
    case TimeFormat::DeltaCaptured: return formatSeconds(t.ts_ns - t.previous_ns, digits);
    case TimeFormat::DeltaDisplayed: return formatSeconds(t.ts_ns - t.previous_shown_ns, digits);
    case TimeFormat::Epoch: return formatSeconds(t.ts_ns, digits);
    case TimeFormat::TimeOfDay: return calendar(t.ts_ns, false, "%H:%M:%S", digits);
    case TimeFormat::DateTimeOfDay: return calendar(t.ts_ns, false, "%Y-%m-%d %H:%M:%S", digits);
    case TimeFormat::YearDayTime: return calendar(t.ts_ns, false, "%Y/%j %H:%M:%S", digits);
    case TimeFormat::UtcTimeOfDay: return calendar(t.ts_ns, true, "%H:%M:%S", digits);
    case TimeFormat::UtcDateTimeOfDay: return calendar(t.ts_ns, true, "%Y-%m-%d %H:%M:%S", digits);
    case TimeFormat::UtcYearDayTime: return calendar(t.ts_ns, true, "%Y/%j %H:%M:%S", digits);
  }
  return {};
}

}  // namespace rudp
