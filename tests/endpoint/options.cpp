#include "options.hpp"

#include <arpa/inet.h>

#include <iostream>

#include <CLI/CLI.hpp>

namespace grudp_ep {

namespace {

// Options that make sense for both roles: traffic, reliability, impairment, output.
void add_common(CLI::App& app, EndpointOptions& o, double& loss_pct, double& reorder_pct, double& dup_pct) {
  app.add_option("--tick-hz", o.tick_hz, "DATA ticks per second (client 30, server 60)")
      ->check(CLI::Range(0.1, 100000.0));
  app.add_option("--duration", o.duration_s, "seconds (client: until DISCONNECT; server: 0 = until signal)")
      ->check(CLI::Range(0.0, 1e7));
  app.add_option("--seed", o.seed, "PRNG seed (traffic mix, impairment, conn_ids)");
  app.add_option("--ping-ms", o.ping_ms, "client PING interval in ms (0 = none)")
      ->check(CLI::Range(0.0, 1e7));
  app.add_option("--reliable", o.reliable, "share of reliable DATA (0..1)")->check(CLI::Range(0.0, 1.0));
  app.add_option("--unsequenced", o.unsequenced, "share of unsequenced DATA (0..1)")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--idle", o.idle, "share of ticks without DATA (0..1)")->check(CLI::Range(0.0, 1.0));
  app.add_option("--payload-min", o.payload_min, "smallest DATA payload")->check(CLI::Range(0, 1024));
  app.add_option("--payload-max", o.payload_max, "largest DATA payload")->check(CLI::Range(0, 1024));
  app.add_option("--rto-min-ms", o.rto_min_ms, "RTO floor in ms")->check(CLI::Range(1.0, 60000.0));
  app.add_option("--rto-initial-ms", o.rto_initial_ms, "RTO before the first RTT sample")
      ->check(CLI::Range(1.0, 60000.0));
  app.add_flag(
      "--no-backoff", [&o](int64_t) { o.backoff = false; }, "every attempt waits one RTO");
  app.add_option("--fast-threshold", o.fast_threshold, "later packets acked past a hole (0 = no fast retx)")
      ->check(CLI::Range(0, 32));
  app.add_option("--max-attempts", o.max_attempts, "attempts per reliable packet before giving up")
      ->check(CLI::Range(1, 64));
  app.add_option("--loss", loss_pct, "impairment: loss rate in percent")->check(CLI::Range(0.0, 99.0));
  app.add_option("--burst", o.impair.burst, "impairment: mean loss-burst length (Gilbert; 1 = independent)")
      ->check(CLI::Range(1.0, 1000.0));
  app.add_option("--delay-ms", o.impair.delay_ms, "impairment: one-way delay in ms")
      ->check(CLI::Range(0.0, 10000.0));
  app.add_option("--jitter-ms", o.impair.jitter_ms, "impairment: uniform jitter +-J ms")
      ->check(CLI::Range(0.0, 10000.0));
  app.add_option("--reorder", reorder_pct, "impairment: percent of packets overtaken by the next one")
      ->check(CLI::Range(0.0, 100.0));
  app.add_option("--duplicate", dup_pct, "impairment: percent of packets sent twice")
      ->check(CLI::Range(0.0, 100.0));
  app.add_option("--json", o.json_path, "write counters as JSON to this file at exit");
  app.add_flag("--quiet", o.quiet, "no status line on stderr at exit");
}

void check_consistency(const EndpointOptions& o) {
  if (o.reliable + o.unsequenced > 1.0) throw UsageError("--reliable + --unsequenced must not exceed 1");
  if (o.payload_min > o.payload_max) throw UsageError("--payload-min must not exceed --payload-max");
  if (o.impair.jitter_ms > 0 && o.impair.delay_ms < o.impair.jitter_ms)
    throw UsageError("--jitter-ms must not exceed --delay-ms");
}

}  // namespace

void parse_ipv4_endpoint(const std::string& text, uint32_t& ip, uint16_t& port) {
  const auto colon = text.rfind(':');
  if (colon == std::string::npos) throw UsageError("--server wants ADDRESS:PORT, got '" + text + "'");
  in_addr a{};
  if (inet_pton(AF_INET, text.substr(0, colon).c_str(), &a) != 1)
    throw UsageError("--server: '" + text.substr(0, colon) + "' is not an IPv4 address");
  const std::string p = text.substr(colon + 1);
  char* end = nullptr;
  const long v = std::strtol(p.c_str(), &end, 10);
  if (p.empty() || *end != '\0' || v < 1 || v > 65535) throw UsageError("--server: bad port '" + p + "'");
  ip = ntohl(a.s_addr);
  port = uint16_t(v);
}

std::optional<EndpointOptions> parse_options(int argc, char** argv) {
  CLI::App app{"grudp-endpoint: GRUDP v1 reference client/server over UDP with in-process impairment"};
  app.require_subcommand(1);
  EndpointOptions o;
  double loss_pct = 0, reorder_pct = 0, dup_pct = 0;
  std::string server;
  CLI::App* srv = app.add_subcommand("server", "serve any number of clients");
  srv->add_option("--port", o.port, "UDP port to bind")->required()->check(CLI::Range(1, 65535));
  srv->add_flag("--exit-after-clients", o.exit_after_clients, "exit once every client has disconnected");
  srv->add_option("--drain-ms", o.drain_ms, "quiet time before --exit-after-clients exits")
      ->check(CLI::Range(0.0, 60000.0));
  add_common(*srv, o, loss_pct, reorder_pct, dup_pct);
  CLI::App* cli = app.add_subcommand("client", "N connections to one server (load generator)");
  cli->add_option("--server", server, "ADDRESS:PORT")->required();
  cli->add_option("--clients", o.clients, "connections, each its own socket and conn_id")
      ->check(CLI::Range(1, 20000));
  cli->add_option("--linger-ms", o.linger_ms, "after the DISCONNECT ack, wait for this much server silence")
      ->check(CLI::Range(0.0, 60000.0));
  add_common(*cli, o, loss_pct, reorder_pct, dup_pct);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return std::nullopt;
  } catch (const CLI::CallForAllHelp&) {
    std::cout << app.help("", CLI::AppFormatMode::All);
    return std::nullopt;
  } catch (const CLI::ParseError& e) { throw UsageError(e.what()); }
  o.role = cli->parsed() ? EndpointOptions::Role::Client : EndpointOptions::Role::Server;
  if (o.role == EndpointOptions::Role::Client) {
    parse_ipv4_endpoint(server, o.server_ip, o.server_port);
    if (o.duration_s <= 0) o.duration_s = 10;
  }
  o.impair.loss = loss_pct / 100.0;
  o.impair.reorder = reorder_pct / 100.0;
  o.impair.duplicate = dup_pct / 100.0;
  check_consistency(o);
  return o;
}

}  // namespace grudp_ep
