// Simulation parameters. Every field is deterministic input: the same config
// and seed always produce the same pcap bytes and the same truth.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace grudp_sim {

enum class Vantage { Client, Server, Middle };
enum class LinkType { Ethernet, Raw };
enum class JitterDist { Uniform, Normal };

const char* to_string(Vantage v);
const char* to_string(LinkType l);
const char* to_string(JitterDist j);

// One direction of one connection's path.
struct LinkConfig {
  double delay_ms = 40.0;  // one-way base delay
  double jitter_ms = 2.0;  // uniform: +-jitter; normal: stddev
  JitterDist jitter_dist = JitterDist::Uniform;
  double reorder = 0.0;            // probability a packet is held back (extra delay)
  double reorder_extra_ms = 30.0;  // held-back packets get U[0.5x, 1.5x] extra
  double loss = 0.0;               // long-run loss rate (Gilbert-Elliott)
  double burst = 1.0;              // mean loss-burst length; <= 1 means independent losses
};

// The link drops everything sent in [t1, t2) in both directions of `conn`
// (-1 = every connection).
struct Outage {
  double t1_s = 0.0;
  double t2_s = 0.0;
  int conn = 0;
};

struct SimConfig {
  int connections = 3;
  double duration_s = 10.0;  // time at which the clients send DISCONNECT
  uint64_t seed = 1;
  double client_hz = 30.0;  // client -> server DATA tick rate
  double server_hz = 60.0;  // server -> client DATA tick rate
  LinkConfig c2s;
  LinkConfig s2c;
  std::vector<Outage> outages;

  Vantage vantage = Vantage::Client;
  double middle_fraction = 0.5;  // middle: capture point at this fraction of the delay
  LinkType link = LinkType::Ethernet;
  bool nsec = false;
  int64_t epoch_s = 1700000000;  // pcap time of simulation t = 0

  std::optional<uint32_t> seq_start;  // both initial seqs; random when unset

  // Reliability (RFC 6298 style).
  double rto_min_ms = 200.0;
  double rto_initial_ms = 1000.0;
  double rto_max_ms = 60000.0;
  int max_attempts = 8;         // attempts per reliable packet before giving up
  int fast_retx_threshold = 3;  // later packets acked past a hole; 0 disables

  // Traffic mix per DATA packet (the rest is unreliable, sequenced).
  double reliable_frac = 0.4;
  double unsequenced_frac = 0.2;
  double fragment_prob = 0.03;  // per reliable message: split into 2..4 fragments
  double idle_frac = 0.05;      // ticks with nothing to send (-> pure ACKs)
  double ping_interval_ms = 1000.0;
  int payload_min = 20;
  int payload_max = 200;

  double stall_threshold_ms = 200.0;
  uint64_t max_packets = 0;  // stop after about this many captured frames (0 = no limit)
  double grace_s = 10.0;     // hard stop this long after duration_s

  uint16_t server_port = 7777;
  uint16_t client_port_base = 40000;
};

}  // namespace grudp_sim
