// Command-line options of grudp-endpoint (both roles) and their parsing.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace grudp_ep {

// In-process impairment applied by an end to what it sends.
struct ImpairOptions {
  double loss = 0.0;       // long-run loss rate (fraction; --loss takes percent)
  double burst = 1.0;      // mean loss-run length (Gilbert model); <= 1: independent losses
  double delay_ms = 0.0;   // one-way delay added before the socket
  double jitter_ms = 0.0;  // uniform +-J around the delay (FIFO kept, as in grudp-sim)
  double reorder = 0.0;    // fraction of seq-consuming packets held until a later one has left
  double duplicate = 0.0;  // fraction of seq-consuming packets written twice
  bool any_delay() const { return delay_ms > 0 || jitter_ms > 0; }
};

struct EndpointOptions {
  enum class Role { Server, Client } role = Role::Server;
  uint16_t port = 7777;      // server: port to bind on 0.0.0.0
  uint32_t server_ip = 0;    // client: server address (host order)
  uint16_t server_port = 0;  // client
  int clients = 1;           // client: connections from this process
  double tick_hz = 0;        // 0: the role's default (client 30, server 60)
  double duration_s = 0;     // client: time before DISCONNECT; server: run time (0 = until signal)
  uint64_t seed = 1;
  double ping_ms = 1000;     // client PING interval (0 = none)
  double reliable = 0.4;     // share of DATA that is reliable
  double unsequenced = 0.2;  // share of DATA that is unsequenced
  double idle = 0.05;        // share of ticks that send nothing
  int payload_min = 20, payload_max = 200;
  double rto_min_ms = 200, rto_initial_ms = 1000, rto_max_ms = 60000;
  bool backoff = true;     // RTO * 2^(attempt-1) unless --no-backoff
  int fast_threshold = 3;  // 0 disables fast retransmission
  int max_attempts = 8;
  double linger_ms = 1000;         // client: after DISCONNECT is acked, wait this long without server packets
  double close_timeout_ms = 5000;  // client: give up waiting for the DISCONNECT ack after this
  bool exit_after_clients = false;  // server: stop once every client disconnected
  double drain_ms = 1000;           // server: quiet time after the last client before exiting
  double idle_timeout_ms = 10000;   // server: a connection silent this long is dropped
  ImpairOptions impair;
  std::string json_path;
  bool quiet = false;

  double effective_tick_hz() const { return tick_hz > 0 ? tick_hz : (role == Role::Client ? 30.0 : 60.0); }
};

// A bad command line: the message is one line, without the program name.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Parses argv. Returns nullopt after printing --help; throws UsageError.
std::optional<EndpointOptions> parse_options(int argc, char** argv);

// "a.b.c.d:port" -> host-order address and port; throws UsageError.
void parse_ipv4_endpoint(const std::string& text, uint32_t& ip, uint16_t& port);

}  // namespace grudp_ep
