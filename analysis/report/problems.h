// The problems a capture's analysis found, worst first, each one line a
// person understands ("conn 3 (client 10.0.1.2:40001): 1.56 s stall at
// 12.4 s, 4 timeout retransmissions in a row"). Shared by the GUI's Summary
// page, `rudpscope-cli report` and the HTML report.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "store/records.h"

namespace rudp {

class StoreReader;

enum class ProblemKind : uint8_t {
  Stall,              // a stall (its cause in the text)
  RetransmissionRun,  // consecutive timeout retransmissions of one seq
  LossBurst,          // a long run of consecutive losses
  RttOverLimit,       // a large share of RTT samples over the highest limit
  HighLoss,           // loss rate of a direction
  CaptureWarning,     // truncated capture, undecodable or malformed frames
  NotDecoded,         // flows no dissector claims: analysed from timing alone
  RateChange,         // a ticking flow no dissector claims: its rate dropped or burst
};
const char* toString(ProblemKind k);

struct Problem {
  ProblemKind kind{};
  double severity = 0;  // orders the list (higher is worse); ms of harm where it has a time
  int64_t conn = 0;     // 0: the capture as a whole
  Direction dir{};
  int64_t start_ns = 0, end_ns = 0;  // where on the timeline (equal for an instant)
  uint64_t frame = 0;                // the packet to show (0: none)
  std::string text;                  // one line
};

// Every problem of the database, worst first.
std::vector<Problem> findProblems(StoreReader& reader);

}  // namespace rudp
