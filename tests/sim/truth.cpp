#include "truth.hpp"

#include <cstdio>

namespace grudp_sim {

using nlohmann::json;

void DirStats::on_link(bool lost_now) {
  // Bursts are runs of consecutive lost packets in link (send) order.
  if (lost_now) {
    ++run_;
  } else if (run_ > 0) {
    ++bursts[run_];
    run_ = 0;
  }
}

void DirStats::finish() {
  if (run_ > 0) ++bursts[run_];
  run_ = 0;
}

double DirStats::mean_burst() const {
  uint64_t n = 0, sum = 0;
  for (auto [len, count] : bursts) {
    n += count;
    sum += uint64_t(len) * count;
  }
  return n ? double(sum) / double(n) : 0.0;
}

void DirStats::stall_close(int64_t now, int64_t threshold_ns, bool open) {
  if (now - stall_start_ >= threshold_ns) stalls.push_back({stall_start_, now, open});
  stall_start_ = now;
}

std::string addr_string(Addr a) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%u.%u.%u.%u:%u", a.ip >> 24, (a.ip >> 16) & 255, (a.ip >> 8) & 255,
                a.ip & 255, a.port);
  return buf;
}

namespace {

double ms(int64_t ns) { return double(ns) / 1e6; }

json link_json(const LinkConfig& l) {
  return {{"delay_ms", l.delay_ms},
          {"jitter_ms", l.jitter_ms},
          {"jitter_dist", to_string(l.jitter_dist)},
          {"reorder", l.reorder},
          {"reorder_extra_ms", l.reorder_extra_ms},
          {"loss", l.loss},
          {"burst", l.burst}};
}

json packet_json(const PacketRecord& r, const std::vector<PacketRecord>& peer) {
  json j = {{"seq", r.h.seq},         {"type", type_name(r.h.type)}, {"flags", r.h.flags},
            {"channel", r.h.channel}, {"length", r.h.length},        {"ts", r.h.ts},
            {"send_ns", r.send_ns},   {"attempt", r.attempt},        {"lost", r.lost}};
  if (r.cause != kOriginal) j["retx_cause"] = r.cause == kTimeout ? "timeout" : "fast";
  if (r.outage) j["outage"] = true;
  if (r.held_back) j["held_back"] = true;
  if (r.where != kNotLost) j["lost_where"] = r.where == kBeforeCapture ? "before_capture" : "after_capture";
  if (r.lost) {
    j["arrival_ns"] = nullptr;
    j["one_way_delay_ms"] = nullptr;
  } else {
    j["arrival_ns"] = r.send_ns + r.delay_ns;
    j["one_way_delay_ms"] = ms(r.delay_ns);
  }
  j["frame"] = r.frame ? json(r.frame) : json(nullptr);
  if (r.frame) j["capture_ns"] = r.capture_ns;
  if (r.duplicate) j["duplicate"] = true;
  if (r.h.flags & kAckFlag) {
    json a = {{"ack", r.h.ack}, {"ack_bits", r.h.ack_bits}, {"ts_echo", r.h.ts_echo}};
    if (r.acked_copy < peer.size()) {
      const PacketRecord& c = peer[r.acked_copy];
      a["acked_copy"] = {
          {"index", r.acked_copy}, {"seq", c.h.seq}, {"attempt", c.attempt}, {"send_ns", c.send_ns}};
    }
    a["true_rtt_ms"] = r.true_rtt_ns >= 0 ? json(ms(r.true_rtt_ns)) : json(nullptr);
    j["ack"] = std::move(a);
  }
  return j;
}

json summary_json(const DirStats& s) {
  json bursts = json::object();
  for (auto [len, count] : s.bursts) bursts[std::to_string(len)] = count;
  json stalls = json::array();
  for (const auto& st : s.stalls)
    stalls.push_back({{"start_ns", st.start_ns},
                      {"end_ns", st.end_ns},
                      {"duration_ms", ms(st.end_ns - st.start_ns)},
                      {"open", st.open}});
  json j = {{"sent", s.sent},
            {"retransmissions",
             {{"total", s.retx_timeout + s.retx_fast}, {"timeout", s.retx_timeout}, {"fast", s.retx_fast}}},
            {"pure_acks", s.pure_acks},
            {"lost", s.lost},
            {"lost_outage", s.lost_outage},
            {"delivered", s.delivered},
            {"duplicates_delivered", s.duplicates},
            {"captured", s.captured},
            {"blocked_ticks", s.blocked_ticks},
            {"loss_bursts", bursts},
            {"mean_loss_burst", s.mean_burst()},
            {"stalls", stalls},
            {"gave_up", s.gave_up}};
  if (s.gave_up) j["gave_up_ns"] = s.gave_up_ns;
  return j;
}

}  // namespace

json config_to_json(const SimConfig& c) {
  json outages = json::array();
  for (const auto& o : c.outages) outages.push_back({{"t1_s", o.t1_s}, {"t2_s", o.t2_s}, {"conn", o.conn}});
  return {{"connections", c.connections},
          {"duration_s", c.duration_s},
          {"seed", c.seed},
          {"tick_hz", {c.client_hz, c.server_hz}},
          {"client_to_server", link_json(c.c2s)},
          {"server_to_client", link_json(c.s2c)},
          {"outages", outages},
          {"vantage", to_string(c.vantage)},
          {"middle_fraction", c.middle_fraction},
          {"link", to_string(c.link)},
          {"nsec", c.nsec},
          {"epoch_s", c.epoch_s},
          {"seq_start", c.seq_start ? json(*c.seq_start) : json(nullptr)},
          {"rto_min_ms", c.rto_min_ms},
          {"rto_initial_ms", c.rto_initial_ms},
          {"rto_max_ms", c.rto_max_ms},
          {"max_attempts", c.max_attempts},
          {"fast_retx_threshold", c.fast_retx_threshold},
          {"reliable_frac", c.reliable_frac},
          {"unsequenced_frac", c.unsequenced_frac},
          {"fragment_prob", c.fragment_prob},
          {"idle_frac", c.idle_frac},
          {"ping_interval_ms", c.ping_interval_ms},
          {"payload", {c.payload_min, c.payload_max}},
          {"stall_threshold_ms", c.stall_threshold_ms},
          {"max_packets", c.max_packets},
          {"server_port", c.server_port},
          {"client_port_base", c.client_port_base}};
}

json truth_to_json(const SimConfig& cfg, const std::vector<ConnTruth>& conns, uint64_t frames, int64_t end_ns,
                   bool with_packets) {
  json jc = json::array();
  static const char* kDirNames[2] = {"client_to_server", "server_to_client"};
  for (size_t i = 0; i < conns.size(); ++i) {
    const ConnTruth& c = conns[i];
    json dirs = json::object();
    for (int d = 0; d < 2; ++d) {
      json jd = {{"summary", summary_json(c.dir[d].stats)}};
      if (with_packets) {
        json pk = json::array();
        for (const auto& r : c.dir[d].packets) pk.push_back(packet_json(r, c.dir[1 - d].packets));
        jd["packets"] = std::move(pk);
      }
      dirs[kDirNames[d]] = std::move(jd);
    }
    jc.push_back({{"index", i},
                  {"conn_id", c.conn_id},
                  {"client", addr_string(c.client)},
                  {"server", addr_string(c.server)},
                  {"client_initial_seq", c.client_isn},
                  {"server_initial_seq", c.server_isn},
                  {"client_clock_ms_at_t0", c.client_clock_ms},
                  {"server_clock_ms_at_t0", c.server_clock_ms},
                  {"directions", std::move(dirs)}});
  }
  return {{"generator", "grudp-sim"},
          {"truth_version", 1},
          {"config", config_to_json(cfg)},
          {"time_base",
           {{"pcap_epoch_s", cfg.epoch_s},
            {"note", "all *_ns values are ns since simulation start; pcap time = pcap_epoch_s + t"}}},
          {"frames", frames},
          {"end_ns", end_ns},
          {"connections", std::move(jc)}};
}

}  // namespace grudp_sim
