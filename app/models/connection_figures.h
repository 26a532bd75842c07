// Figures of one connection the analysis does not store directly, derived
// the same way wherever the GUI shows them.
//
// Badness: how bad a connection was, as one number; the Connections page
// sorts worst first by it. A sum of three terms, each in "stall milliseconds":
//
//   badness = longest stall (ms, either direction)
//           + 1000 × largest share of RTT samples above the first RTT limit
//                    (0..1, either direction)
//           + 20 × largest loss % (either direction, see lossPercent)
//
// so a 1 s stall weighs as much as every RTT sample over the limit, or as a
// 50 % loss; a 5 % loss counts like a 100 ms stall. Stalls come first because
// they are what players feel; loss without stalls is mostly hidden by
// retransmission.
#pragma once
#include <optional>

#include "store/records.h"

namespace rudp::gui {

// The metrics of one direction; null when the analysis did not see it.
const ana::DirectionMetrics* analysedDirection(const ConnectionRecord& r, Direction d);

inline constexpr double kShareWeight = 1000.0;
inline constexpr double kLossPercentWeight = 20.0;

// Seqs never delivered per distinct seq the capture saw in that direction:
// 100 × lost ÷ (data packets − retransmissions − network duplicates).
// Empty when the direction was not analysed or carried no data.
std::optional<double> lossPercent(const ConnectionRecord& r, Direction d);

// Longest stall of one direction in ms; empty when the direction was not
// analysed, 0 when it had none.
std::optional<double> longestStallMs(const ConnectionRecord& r, Direction d);

// Share of RTT samples above limit `i` of the analysis settings, in percent;
// empty without samples.
std::optional<double> shareAbovePercent(const ConnectionRecord& r, Direction d, size_t i);

double connectionBadness(const ConnectionRecord& r);

}  // namespace rudp::gui
