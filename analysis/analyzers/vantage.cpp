#include "analyzers/vantage.h"

#include <algorithm>

namespace rudp::ana {

Vantage detectVantage(bool has_cs, double cs, bool has_sc, double sc) {
  if (!has_cs || !has_sc) return Vantage::Unknown;
  const bool cs_local =
      sc <= std::max(kShortRoundTripMs, cs / 4) && cs > kShortRoundTripMs;  // client's data takes the trip
  const bool sc_local = cs <= std::max(kShortRoundTripMs, sc / 4) && sc > kShortRoundTripMs;
  if (cs_local && !sc_local) return Vantage::Client;
  if (sc_local && !cs_local) return Vantage::Server;
  if (cs > kShortRoundTripMs && sc > kShortRoundTripMs) return Vantage::Middle;
  return Vantage::Unknown;
}

RttSpan spanFor(Vantage v, Direction dir) {
  if (v == Vantage::Unknown) return RttSpan::Unknown;
  if (v == Vantage::Middle) return RttSpan::BeyondCapture;
  return atSender(v, dir) ? RttSpan::RoundTrip : RttSpan::ReceiverDelay;
}

}  // namespace rudp::ana
