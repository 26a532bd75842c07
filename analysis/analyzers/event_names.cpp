// The names of the analysis' enums, as the JSON and the store spell them.
#include "analyzers/events.h"

namespace rudp::ana {

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
    case RttSource::SpinBit: return "spin_bit";
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

}  // namespace rudp::ana
