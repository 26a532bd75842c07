// quic-go's own record of a lab run: its qlog (JSON-SEQ, one record per
// line after an RS byte), summed into the figures the lab checks the QUIC
// analysis against.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace rudp::cli {

// {packets_sent, packets_lost, pto_expired, rtt_updates, min_rtt_ms,
//  stream_resends, datagrams_sent} from one endpoint's .sqlog:
// - rtt_updates: the distinct (min, smoothed, latest, variance) tuples of
//   recovery:metrics_updated, one per RTT sample the endpoint took;
// - stream_resends: STREAM frames carrying bytes of their stream already sent.
// Throws rudp::Error naming the file when it cannot be read.
nlohmann::json summariseQlog(const std::string& path);

}  // namespace rudp::cli
