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

const char* toString(Vantage v) {
  switch (v) {
    case Vantage::Client: return "client";
    case Vantage::Server: return "server";
    case Vantage::Middle: return "middle";
    default: return "unknown";
  }
}

const char* toString(RttSource s) {
  switch (s) {
    case RttSource::TsEcho: return "ts_echo";
    case RttSource::SeqAck: return "seq_ack";
    case RttSource::TcpAck: return "tcp_ack";
    case RttSource::InferredEcho: return "inferred_echo";
    default: return "tcp_timestamp";
  }
}

const char* toString(RttSpan s) {
  switch (s) {
    case RttSpan::RoundTrip: return "round_trip";
    case RttSpan::ReceiverDelay: return "receiver_delay";
    case RttSpan::BeyondCapture: return "beyond_capture";
    default: return "unknown";
  }
}

const char* toString(RetxCause c) {
  switch (c) {
    case RetxCause::Timeout: return "timeout";
    case RetxCause::Fast: return "fast";
    default: return "spurious";
  }
}

const char* toString(StallCause c) {
  switch (c) {
    case StallCause::RetransmissionTimeout: return "retransmission_timeout";
    case StallCause::PeerSilent: return "peer_silent";
    case StallCause::ZeroWindow: return "zero_window";
    case StallCause::AcksLost: return "acks_lost";
    case StallCause::BothQuiet: return "both_quiet";
    case StallCause::LocalQuiet: return "local_quiet";
    case StallCause::RemoteQuiet: return "remote_quiet";
    case StallCause::OneSideQuiet: return "one_side_quiet";
  }
  return "retransmission_timeout";
}

double genreStallMs(std::string_view g) {
  if (g == "fighting") return 30;
  if (g == "fps") return 50;
  if (g == "racing") return 50;
  if (g == "moba") return 150;
  if (g == "mmo") return 300;
  if (g == "turn-based" || g == "turn_based" || g == "turnbased") return 1000;
  if (g == "default") return 200;
  return -1;
}

std::optional<std::array<double, 3>> genreRttLimitsMs(std::string_view g) {
  using Limits = std::array<double, 3>;
  if (g == "fighting" || g == "fps" || g == "racing") return Limits{50, 100, 150};
  if (g == "moba" || g == "default") return Limits{150, 250, 300};
  if (g == "mmo") return Limits{150, 300, 500};
  if (g == "turn-based" || g == "turn_based" || g == "turnbased") return Limits{300, 1000, 2000};
  return std::nullopt;
}

}  // namespace rudp::ana
