// One end of one GRUDP connection over a real socket: the simulator's
// endpoint behaviour (tests/sim/README.md "Model") driven by a real clock.
// Protocol state reuses rudp_sim (RecvState, RtoEstimator, SendQueue); the
// connection only adds timers, traffic generation and counting.
#pragma once

#include <array>
#include <cstdint>
#include <limits>

#include "clock.hpp"
#include "counters.hpp"
#include "endpoint.hpp"
#include "impaired_path.hpp"
#include "options.hpp"
#include "rng.hpp"

namespace grudp_ep {

class Connection {
 public:
  enum class State { Connecting, Open, Closing, Closed, GaveUp, TimedOut };

  Connection(const EndpointOptions& o, bool client, uint32_t conn_id, uint64_t stream, const Clock& clock,
             DelayLine& line, DelayLine::Target to);

  // Client: sends CONNECT.
  void start(int64_t now);
  // A datagram for this connection (already parsed and matched by conn_id).
  void on_datagram(int64_t now, const grudp_sim::Header& h);
  // Runs what is due: ticks, pings, pure ACKs, retransmission timers.
  void poll(int64_t now);
  int64_t next_due() const { return next_due_; }
  // Client: sends DISCONNECT as soon as the ack window allows and stops ticking.
  void close(int64_t now);
  // Client: DISCONNECT sent and everything acked, and the server silent for `linger`.
  bool finished(int64_t now) const;
  // Server: the client disconnected (or vanished) and nothing is left to send.
  bool done(int64_t now) const;
  void set_target(DelayLine::Target to) { path_.set_target({to.fd, to.dst, &counters_}); }

  uint32_t conn_id() const { return conn_id_; }
  State state() const { return state_; }
  const char* state_name() const;
  const ConnCounters& counters() const { return counters_; }
  int64_t last_receive_ns() const { return last_rx_; }

 private:
  struct RtoTimer {
    uint32_t seq = 0;
    int attempt = 0;
    int64_t deadline = std::numeric_limits<int64_t>::max();
  };

  // connection.cpp: sending and receiving
  void send_original(int64_t now, uint8_t type, uint8_t flags, uint8_t channel, size_t len);
  void transmit(int64_t now, grudp_sim::Header h, bool retransmission);
  void retransmit(int64_t now, uint32_t seq, bool fast);
  void count_arrival(const grudp_sim::Header& h, bool duplicate, bool below_highest);
  void handle_ack(int64_t now, const grudp_sim::Header& h);
  void react(int64_t now, const grudp_sim::Header& h);
  uint32_t local_ms(int64_t now) const;
  bool window_full() const;

  // connection_timers.cpp: what time drives
  void start_ticking(int64_t now);
  void tick(int64_t now);
  void send_tick_data(int64_t now);
  void poll_rto(int64_t now);
  void try_disconnect(int64_t now);
  void give_up();
  bool stopped_sending() const;
  int64_t rto_ns(int attempt) const;
  void refresh_due();

  const EndpointOptions& opt_;
  const bool client_;
  const uint32_t conn_id_;
  const Clock& clock_;
  grudp_sim::Rng rng_;
  ConnCounters counters_;
  ImpairedPath path_;
  grudp_sim::RecvState recv_;
  grudp_sim::RtoEstimator rto_;
  grudp_sim::SendQueue sq_;
  std::array<RtoTimer, 64> timers_{};  // slot seq % 64: outstanding seqs span < kAckSpan
  State state_ = State::Connecting;
  uint32_t next_seq_ = 0;
  uint32_t clock0_ms_ = 0;
  double period_ns_ = 0;
  bool ticking_ = false, disconnect_wanted_ = false, disconnect_sent_ = false, peer_closed_ = false;
  int64_t tick_origin_ = 0, next_tick_ = 0, next_ping_ = 0, close_started_ = 0;
  uint64_t ticks_ = 0;
  bool ack_pending_ = false;
  int64_t ack_since_ = 0;
  bool sampled_ = false;
  uint32_t sampled_ack_ = 0, sampled_echo_ = 0;
  int64_t last_rx_ = 0;
  std::array<uint32_t, 256> last_sequenced_{};  // newest sequenced unreliable seq per channel
  std::array<bool, 256> any_sequenced_{};
  int64_t next_due_ = 0;
};

}  // namespace grudp_ep
