// Ground truth: what really happened on each link, independent of any
// capture vantage. Summary counters are always kept (cheap); per-packet
// records only when a truth file is requested.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include <nlohmann/json.hpp>

#include "config.hpp"
#include "wire.hpp"

namespace grudp_sim {

enum Dir { kC2S = 0, kS2C = 1 };
enum RetxCause : uint8_t { kOriginal = 0, kTimeout = 1, kFast = 2 };
enum LostWhere : uint8_t { kNotLost = 0, kBeforeCapture = 1, kAfterCapture = 2 };

struct PacketRecord {
  Header h;
  int64_t send_ns = 0;
  int64_t delay_ns = 0;  // link delay (nominal for lost packets)
  int64_t capture_ns = -1;
  uint64_t frame = 0;  // 1-based pcap frame number, 0 = not captured
  int attempt = 1;
  RetxCause cause = kOriginal;
  bool lost = false;
  bool outage = false;
  bool held_back = false;  // picked for reordering by the link
  LostWhere where = kNotLost;
  bool duplicate = false;             // delivered, but the receiver already had this seq
  uint32_t acked_copy = 0xFFFFFFFFu;  // index of the echoed copy in the peer direction
  int64_t true_rtt_ns = -1;
};

struct Stall {
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  bool open = false;  // still unresolved at the end (or the sender gave up)
};

struct DirStats {
  uint64_t sent = 0;
  uint64_t retx_timeout = 0;
  uint64_t retx_fast = 0;
  uint64_t pure_acks = 0;
  uint64_t lost = 0;
  uint64_t lost_outage = 0;
  uint64_t delivered = 0;
  uint64_t duplicates = 0;
  uint64_t captured = 0;
  uint64_t blocked_ticks = 0;           // ticks skipped because the ack window was full
  std::map<uint32_t, uint64_t> bursts;  // run length -> count
  std::vector<Stall> stalls;
  bool gave_up = false;
  int64_t gave_up_ns = 0;

  void on_link(bool lost_now);
  void finish();
  double mean_burst() const;

  // Stall tracking on the sender's timeline (see README for the definition).
  void stall_reset(int64_t now) { stall_start_ = now; }
  void stall_close(int64_t now, int64_t threshold_ns, bool open);

 private:
  uint32_t run_ = 0;
  int64_t stall_start_ = 0;
};

struct DirTruth {
  DirStats stats;
  std::vector<PacketRecord> packets;
};

struct ConnTruth {
  uint32_t conn_id = 0;
  Addr client, server;
  uint32_t client_isn = 0, server_isn = 0;
  uint32_t client_clock_ms = 0, server_clock_ms = 0;  // clock value at t = 0
  DirTruth dir[2];
};

nlohmann::json config_to_json(const SimConfig& cfg);
std::string addr_string(Addr a);

// The full truth document; `with_packets` adds the per-packet arrays.
nlohmann::json truth_to_json(const SimConfig& cfg, const std::vector<ConnTruth>& conns, uint64_t frames,
                             int64_t end_ns, bool with_packets);

}  // namespace grudp_sim
