// quic-go's own record of a lab run: its qlog (JSON-SEQ, one record per
// line after an RS byte), summed into the figures the lab checks the QUIC
// analysis against.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace rudp::cli {

// {packets_sent, packets_lost, packets_lost_spurious, pto_expired, pto_given_up,
//  pto_given_up_acked_largest, rtt_updates, min_rtt_ms, stream_resends,
//  datagrams_sent} from one endpoint's .sqlog:
// - rtt_updates: the distinct (min, smoothed, latest, variance) tuples of
//   recovery:metrics_updated, one per RTT sample the endpoint took;
// - packets_lost_spurious: packets it declared lost that an ACK named later;
// - pto_given_up: packets its PTO probes gave up without a packet_lost;
//   pto_given_up_acked_largest: ACKs whose largest acknowledged was one of
//   them, each an RTT sample RFC 9002 takes and quic-go does not;
// - stream_resends: STREAM frames carrying bytes of their stream already sent.
// Throws rudp::Error naming the file when it cannot be read.
nlohmann::json summariseQlog(const std::string& path);

}  // namespace rudp::cli
