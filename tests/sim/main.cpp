// grudp-sim: command-line front end of the GRUDP traffic simulator.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>

#include <CLI/CLI.hpp>

#include "simulator.hpp"

using namespace grudp_sim;

namespace {

// "X" applies to both directions, "X,Y" is client->server, server->client.
void parse_pair(const std::string& text, double& c2s, double& s2c) {
  const auto comma = text.find(',');
  c2s = std::stod(text.substr(0, comma));
  s2c = comma == std::string::npos ? c2s : std::stod(text.substr(comma + 1));
}

Outage parse_outage(const std::string& text) {
  // T1:T2 or T1:T2@CONN (CONN -1 = all connections), seconds.
  Outage o;
  const auto colon = text.find(':');
  if (colon == std::string::npos) throw std::invalid_argument("--outage wants T1:T2[@CONN]");
  const auto at = text.find('@');
  o.t1_s = std::stod(text.substr(0, colon));
  o.t2_s = std::stod(text.substr(colon + 1, at == std::string::npos ? std::string::npos : at - colon - 1));
  if (at != std::string::npos) o.conn = std::stoi(text.substr(at + 1));
  if (o.t2_s <= o.t1_s) throw std::invalid_argument("--outage: T2 must be after T1");
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"grudp-sim: deterministic GRUDP v1 traffic simulator (pcap + ground truth)"};
  SimConfig cfg;
  std::string out, truth_path, tick = "30,60", loss = "0", burst = "1", delay = "40", jitter = "2",
                               reorder = "0", vantage = "client", link = "ethernet", jitter_dist = "uniform";
  std::vector<std::string> outages;
  uint32_t seq_start = 0;
  bool summary_only = false;

  app.add_option("--out", out, "pcap file to write")->required();
  app.add_option("--truth", truth_path, "ground-truth JSON file to write");
  app.add_flag("--truth-summary-only", summary_only, "omit the per-packet arrays from the truth");
  app.add_option("--connections", cfg.connections, "number of client connections")
      ->check(CLI::Range(1, 60000));
  auto* dur = app.add_option("--duration", cfg.duration_s, "seconds until the clients disconnect");
  app.add_option("--seed", cfg.seed, "PRNG seed");
  app.add_option("--tick-hz", tick, "A,B: client->server and server->client tick rates");
  app.add_option("--loss", loss, "loss rate P or P_c2s,P_s2c");
  app.add_option("--burst", burst, "mean loss burst length (1 = independent)");
  app.add_option("--delay-ms", delay, "one-way base delay, ms");
  app.add_option("--jitter-ms", jitter, "jitter, ms (uniform +-J or normal sigma J)");
  app.add_option("--jitter-dist", jitter_dist, "uniform|normal")->check(CLI::IsMember({"uniform", "normal"}));
  app.add_option("--reorder", reorder, "probability a packet is held back and overtaken");
  app.add_option("--vantage", vantage, "capture point")->check(CLI::IsMember({"client", "server", "middle"}));
  app.add_option("--middle-fraction", cfg.middle_fraction,
                 "middle vantage: fraction of the delay before the tap");
  auto* seq_opt = app.add_option("--seq-start", seq_start, "initial seq of both sides (default random)");
  app.add_option("--outage", outages, "T1:T2[@CONN] seconds: drop everything (CONN default 0, -1 = all)");
  app.add_option("--rto-min-ms", cfg.rto_min_ms, "minimum RTO, ms");
  app.add_option("--rto-initial-ms", cfg.rto_initial_ms, "RTO before the first RTT sample, ms");
  app.add_option("--max-attempts", cfg.max_attempts, "attempts per reliable packet before giving up");
  app.add_option("--fast-retx", cfg.fast_retx_threshold,
                 "later acked packets that trigger a fast retransmission (0 = off)");
  app.add_option("--reliable", cfg.reliable_frac, "fraction of DATA packets that are reliable");
  app.add_option("--unsequenced", cfg.unsequenced_frac, "fraction of DATA packets that are unsequenced");
  app.add_option("--fragment", cfg.fragment_prob, "probability a reliable message is fragmented");
  app.add_option("--idle", cfg.idle_frac, "fraction of ticks with nothing to send");
  app.add_option("--ping-ms", cfg.ping_interval_ms, "client PING interval, ms (0 = none)");
  app.add_option("--stall-ms", cfg.stall_threshold_ms, "stall threshold for the truth, ms");
  app.add_flag("--nsec", cfg.nsec, "nanosecond pcap timestamps");
  app.add_option("--link", link, "link type")->check(CLI::IsMember({"ethernet", "raw"}));
  app.add_option("--packets", cfg.max_packets, "stop after about N captured packets");
  CLI11_PARSE(app, argc, argv);

  try {
    parse_pair(tick, cfg.client_hz, cfg.server_hz);
    parse_pair(loss, cfg.c2s.loss, cfg.s2c.loss);
    parse_pair(burst, cfg.c2s.burst, cfg.s2c.burst);
    parse_pair(delay, cfg.c2s.delay_ms, cfg.s2c.delay_ms);
    parse_pair(jitter, cfg.c2s.jitter_ms, cfg.s2c.jitter_ms);
    parse_pair(reorder, cfg.c2s.reorder, cfg.s2c.reorder);
    cfg.c2s.jitter_dist = cfg.s2c.jitter_dist =
        jitter_dist == "normal" ? JitterDist::Normal : JitterDist::Uniform;
    for (const auto& o : outages) cfg.outages.push_back(parse_outage(o));
    if (cfg.client_hz <= 0 || cfg.server_hz <= 0) throw std::invalid_argument("--tick-hz must be > 0");
  } catch (const std::exception& e) {
    std::cerr << "grudp-sim: bad option: " << e.what() << "\n";
    return 2;
  }
  cfg.vantage = vantage == "client"   ? Vantage::Client
                : vantage == "server" ? Vantage::Server
                                      : Vantage::Middle;
  cfg.link = link == "raw" ? LinkType::Raw : LinkType::Ethernet;
  if (*seq_opt) cfg.seq_start = seq_start;
  // With only a packet budget, run until the budget is reached.
  if (cfg.max_packets && !*dur) cfg.duration_s = 1e7;

  try {
    const auto t0 = std::chrono::steady_clock::now();
    Simulator sim(cfg);
    const RunResult r = sim.run(out, !truth_path.empty() && !summary_only);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!truth_path.empty()) {
      std::ofstream f(truth_path);
      if (!f) throw std::runtime_error("cannot write " + truth_path);
      f << sim.truth_json(!summary_only).dump(1) << "\n";
    }
    std::fprintf(
        stderr,
        "grudp-sim: %llu frames (%llu datagrams sent) over %.3f s simulated in %.3f s wall (%.0f frames/s)\n",
        (unsigned long long)r.frames, (unsigned long long)r.sent, double(r.end_ns) / 1e9, wall,
        wall > 0 ? double(r.frames) / wall : 0.0);
  } catch (const std::exception& e) {
    std::cerr << "grudp-sim: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
