// How the problems list and the HTML report say numbers, times and
// directions, so both read the same.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "store/records.h"

namespace rudp::report {

// Seconds since the capture's first packet, as Wireshark shows them: "8.052 s".
std::string secondsAt(int64_t ts_ns, int64_t capture_start_ns);
// Capture-time seconds since the capture's first packet, as a number.
double secondsSince(int64_t ts_ns, int64_t capture_start_ns);
// A span of time: "233 ms", "1.56 s", "2 min 5 s".
std::string durationText(double ms);
// "12.5 %", "0.40 %".
std::string percentText(double fraction);
// "1.2 MB", "830 kB", "512 B".
std::string bytesText(uint64_t bytes);
// printf into a std::string.
std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

// "client→server" / "server→client".
const char* directionWords(Direction d);
// "conn 2 (client 10.0.1.2:40001)".
std::string connectionLabel(const ConnectionSummary& c);
// What a direction's RTT samples measure, for labels: "RTT", "ack delay", ...
const char* rttSpanWords(ana::RttSpan span);

// A field inferred from the payloads: "u16 LE at offset 2, 99.2 % of packets fit";
// a clock adds its unit ("u32 BE at offset 6, in ms, ..."), an echo of the next
// number expected says so.
std::string inferredFieldText(const ana::InferredField& f);
// "rate fell to 16.0 packets/s (usually 64)", "burst of 256.0 packets/s (usually 64)".
std::string rateChangeWords(const ana::RateChangeEvent& e);

// True when the capture sits at the sender of direction `d` (so every copy
// of its data, lost or not, is in the capture).
bool capturedAtSender(ana::Vantage v, Direction d);
// Lost seqs over the seqs sent in direction `d`, as far as the capture tells.
double lossFraction(const ana::DirectionMetrics& m, ana::Vantage v, Direction d);

}  // namespace rudp::report
