// What one end counts about one connection, and its JSON form (README.md
// "JSON" documents every field and its exact meaning).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "wire.hpp"

namespace grudp_ep {

// Datagrams by GRUDP type, DATA split by delivery class.
struct TypeCounts {
  std::array<uint64_t, 7> by_type{};
  uint64_t data_reliable = 0, data_unreliable = 0, data_unsequenced = 0;

  void add(const grudp_sim::Header& h);
  uint64_t total() const;
  TypeCounts& operator+=(const TypeCounts& o);
  nlohmann::json to_json() const;
};

// Datagrams the impairment dropped, by what they were.
struct DropCounts {
  uint64_t originals = 0, retransmissions = 0;  // first copy of a seq vs a retransmitted copy
  uint64_t reliable = 0, unreliable = 0;        // RELIABLE flag set or not
  TypeCounts by_type;

  uint64_t total() const { return originals + retransmissions; }
  DropCounts& operator+=(const DropCounts& o);
  nlohmann::json to_json() const;
};

struct RetxCounts {
  uint64_t timeout = 0, fast = 0;
  uint64_t total() const { return timeout + fast; }
};

struct RttSample {
  double t_ms;     // Unix time of the reception, ms
  int32_t rtt_ms;  // own clock now - ts_echo
};

struct ConnCounters {
  TypeCounts sent;       // every datagram the protocol sent (originals + retransmissions), before impairment
  TypeCounts sent_wire;  // datagrams written to the socket: sent - dropped + duplicated
  TypeCounts originals;  // first copies (sent minus retransmissions)
  TypeCounts received;   // datagrams read from the socket and accepted for this connection
  RetxCounts retx;
  DropCounts drops;
  TypeCounts duplicated;               // extra copies written by --duplicate
  uint64_t reordered = 0;              // held packets that a later packet overtook
  uint64_t delayed = 0;                // datagrams held back by --delay-ms/--jitter-ms before the socket
  uint64_t send_errors = 0;            // sendto failures (EAGAIN, ECONNREFUSED, ...): not on the wire
  uint64_t received_duplicates = 0;    // seq-consuming arrivals of a seq already received
  uint64_t received_out_of_order = 0;  // seq-consuming first arrivals below the highest seq received
  uint64_t delivered_reliable = 0, delivered_unreliable = 0, delivered_unsequenced = 0;
  uint64_t stale_unreliable = 0;  // sequenced unreliable DATA older than the channel's last: discarded
  uint64_t blocked_ticks = 0;     // ticks skipped because of the ack window
  uint64_t skipped_ticks = 0;     // ticks dropped because the loop fell more than 4 ticks behind
  bool gave_up = false;
  // The original of the highest seq sent was reliable and dropped: a capture
  // cannot tell its first surviving copy from an original (no later seq exists).
  bool last_original_dropped = false;
  std::vector<RttSample> rtt;

  ConnCounters& operator+=(const ConnCounters& o);  // rtt samples are not summed
  nlohmann::json to_json(bool with_rtt) const;
};

// One connection's identity and counters, as written per connection.
struct ConnReport {
  uint32_t conn_id = 0;
  std::string local, peer;  // "a.b.c.d:port"
  std::string state;        // "closed", "open", "gave_up", "timed_out"
  const ConnCounters* counters = nullptr;
};

nlohmann::json report_json(const std::string& role, double elapsed_s, const std::vector<ConnReport>& conns,
                           uint64_t unknown_datagrams);

std::string addr_string(uint32_t ip, uint16_t port);

}  // namespace grudp_ep
