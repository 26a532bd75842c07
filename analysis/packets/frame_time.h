// A frame's time as Wireshark's View > Time Display Format (tshark -t) shows it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace rudp {

enum class TimeFormat {
  Relative,        // seconds since the first frame (Wireshark's default)
  DeltaCaptured,   // since the previous captured frame
  DeltaDisplayed,  // since the previous displayed frame
  Epoch,           // seconds since 1970-01-01
  TimeOfDay,       // local 12:34:56.123456
  DateTimeOfDay,   // local 2026-11-27 12:34:56.123456
  YearDayTime,     // local 2026/331 12:34:56.123456
  UtcTimeOfDay,
  UtcDateTimeOfDay,
  UtcYearDayTime,
};

struct TimeFormatInfo {
  TimeFormat format;
  const char* tshark;  // the -t argument: "r", "dd", "ud", ...
  const char* label;   // Wireshark's menu text
};
// Every format, in Wireshark's menu order.
const std::vector<TimeFormatInfo>& timeFormats();

// The frame's times a format may need, all in ns since the Unix epoch.
struct FrameTimes {
  int64_t ts_ns = 0;
  int64_t first_ns = 0;           // the capture's first frame
  int64_t previous_ns = 0;        // the previous captured frame (this one's own for frame 1)
  int64_t previous_shown_ns = 0;  // the previous displayed frame (likewise)
};

// `digits` after the second (Wireshark's automatic precision is the file's:
// CaptureReader::timestampDigits). Digits beyond it are cut, not rounded, as
// Wireshark does.
std::string formatFrameTime(TimeFormat format, const FrameTimes& t, int digits);

// A signed span as seconds with `digits` decimals, cut toward zero: "-0.250000".
std::string formatSeconds(int64_t ns, int digits);
// "0.015000000 seconds": a time span as tshark's details tree writes it.
inline std::string secondsText(int64_t ns) { return formatSeconds(ns, 9) + " seconds"; }

}  // namespace rudp
