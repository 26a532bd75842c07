// Internal state of the simulator, shared by sim_core.cpp (event loop, sending,
// capture) and sim_behaviour.cpp (what endpoints do on ticks, timers, arrivals).
#pragma once

#include <deque>
#include <memory>
#include <optional>
#include <queue>
#include <vector>

#include "endpoint.hpp"
#include "link.hpp"
#include "pcap_writer.hpp"
#include "rng.hpp"
#include "simulator.hpp"

namespace grudp_sim {

enum EvKind : uint8_t {
  EvStart,
  EvTick,
  EvArrive,
  EvCapture,
  EvRto,
  EvAckTimer,
  EvPing,
  EvClose,
  EvServerClose
};

struct Event {
  int64_t t;
  uint64_t order;  // insertion counter: deterministic tie-break
  uint32_t a;      // slot, or seq for EvRto
  uint32_t b;      // attempt for EvRto
  uint16_t conn;
  uint8_t kind;
  uint8_t side;
  bool operator>(const Event& o) const { return t != o.t ? t > o.t : order > o.order; }
};

// A datagram in flight (or waiting to be captured).
struct Slot {
  std::vector<uint8_t> frame;
  Header h;
  int64_t send_ns = 0;
  uint32_t truth_idx = kNoIndex;
  uint32_t echoed_copy = kNoIndex;
  uint16_t conn = 0;
  uint8_t dir = 0;
  uint8_t refs = 0;
};

struct Fragment {
  uint16_t msg_id;
  uint8_t index, count;
  int size;
};

enum Side : uint8_t { kClient = 0, kServer = 1 };

struct EndpointState {
  Addr addr, peer;
  uint32_t next_seq = 0;
  uint32_t clock0_ms = 0;
  double period_ns = 0;
  int64_t tick_origin = 0;
  uint64_t ticks = 0;
  RecvState recv;
  RtoEstimator rto{1000, 200, 60000};
  SendQueue sq;
  Rng rng;
  bool established = false, ticking = false, closed = false, gave_up = false;
  bool ack_pending = false, ack_timer = false;
  int64_t ack_since = 0;
  bool sampled = false;
  uint32_t sampled_ack = 0, sampled_echo = 0;
  uint16_t ip_id = 0, msg_id = 0;
  std::deque<Fragment> frags;
};

struct Conn {
  EndpointState ep[2];
  std::unique_ptr<Link> link[2];
  Rng capture_rng;
};

struct Simulator::Impl {
  SimConfig cfg;
  std::vector<Conn> conns;
  std::vector<ConnTruth> truth;
  bool keep = false;

  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> queue;
  uint64_t order = 0;
  int64_t now = 0;
  int64_t last_activity = 0;  // last send or arrival (stale timers do not count)
  std::vector<Slot> slots;
  std::vector<uint32_t> free_slots;
  std::optional<PcapWriter> writer;
  RunResult result;
  bool stop = false;

  explicit Impl(SimConfig c) : cfg(std::move(c)) {}

  // sim_core.cpp
  void setup();
  RunResult run(const std::string& path, bool keep_packets);
  void schedule(int64_t t, EvKind kind, uint16_t conn, uint8_t side, uint32_t a = 0, uint32_t b = 0);
  uint32_t local_ms(const EndpointState& ep) const;
  void send_packet(uint16_t conn, uint8_t side, Header h, const uint8_t* payload, size_t len, int attempt,
                   RetxCause cause);
  void capture(Slot& s, int64_t t);
  void release(uint32_t slot);
  int64_t rto_ns(const EndpointState& ep, int attempt) const;
  void finish();

  // sim_behaviour.cpp
  void dispatch(const Event& e);
  void send_original(uint16_t conn, uint8_t side, uint8_t type, uint8_t flags, uint8_t channel,
                     const uint8_t* payload, size_t len);
  void retransmit(uint16_t conn, uint8_t side, uint32_t seq, RetxCause cause);
  void on_tick(uint16_t conn, uint8_t side);
  void on_arrive(uint32_t slot);
  void on_rto(uint16_t conn, uint8_t side, uint32_t seq, uint32_t attempt);
  void on_ack_timer(uint16_t conn, uint8_t side);
  void handle_ack(uint16_t conn, uint8_t side, const Header& h);
  void mark_ack_pending(uint16_t conn, uint8_t side);
  void give_up(uint16_t conn, uint8_t side);
  void start_ticking(uint16_t conn, uint8_t side);
  bool window_full(const EndpointState& ep) const;
};

}  // namespace grudp_sim
