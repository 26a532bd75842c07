#include "counters.hpp"

#include <arpa/inet.h>

namespace grudp_ep {

using grudp_sim::Header;
using nlohmann::json;

void TypeCounts::add(const Header& h) {
  if (h.type < by_type.size()) ++by_type[h.type];
  if (h.type != grudp_sim::kData) return;
  if (h.flags & grudp_sim::kReliable)
    ++data_reliable;
  else if (h.flags & grudp_sim::kUnsequenced)
    ++data_unsequenced;
  else
    ++data_unreliable;
}

uint64_t TypeCounts::total() const {
  uint64_t n = 0;
  for (uint64_t v : by_type) n += v;
  return n;
}

TypeCounts& TypeCounts::operator+=(const TypeCounts& o) {
  for (size_t i = 0; i < by_type.size(); ++i) by_type[i] += o.by_type[i];
  data_reliable += o.data_reliable;
  data_unreliable += o.data_unreliable;
  data_unsequenced += o.data_unsequenced;
  return *this;
}

json TypeCounts::to_json() const {
  json j = {{"total", total()}};
  for (size_t i = 0; i < by_type.size(); ++i) j[grudp_sim::type_name(uint8_t(i))] = by_type[i];
  j["data_reliable"] = data_reliable;
  j["data_unreliable"] = data_unreliable;
  j["data_unsequenced"] = data_unsequenced;
  return j;
}

DropCounts& DropCounts::operator+=(const DropCounts& o) {
  originals += o.originals;
  retransmissions += o.retransmissions;
  reliable += o.reliable;
  unreliable += o.unreliable;
  by_type += o.by_type;
  return *this;
}

json DropCounts::to_json() const {
  return {{"total", total()},     {"originals", originals},   {"retransmissions", retransmissions},
          {"reliable", reliable}, {"unreliable", unreliable}, {"by_type", by_type.to_json()}};
}

ConnCounters& ConnCounters::operator+=(const ConnCounters& o) {
  sent += o.sent;
  sent_wire += o.sent_wire;
  originals += o.originals;
  received += o.received;
  retx.timeout += o.retx.timeout;
  retx.fast += o.retx.fast;
  drops += o.drops;
  duplicated += o.duplicated;
  reordered += o.reordered;
  delayed += o.delayed;
  send_errors += o.send_errors;
  received_duplicates += o.received_duplicates;
  received_out_of_order += o.received_out_of_order;
  delivered_reliable += o.delivered_reliable;
  delivered_unreliable += o.delivered_unreliable;
  delivered_unsequenced += o.delivered_unsequenced;
  stale_unreliable += o.stale_unreliable;
  blocked_ticks += o.blocked_ticks;
  skipped_ticks += o.skipped_ticks;
  gave_up = gave_up || o.gave_up;
  last_original_dropped = last_original_dropped || o.last_original_dropped;
  return *this;
}

json ConnCounters::to_json(bool with_rtt) const {
  json j = {{"sent", sent.to_json()},
            {"sent_wire", sent_wire.to_json()},
            {"originals", originals.to_json()},
            {"received", received.to_json()},
            {"retransmissions", {{"total", retx.total()}, {"timeout", retx.timeout}, {"fast", retx.fast}}},
            {"impairment",
             {{"drops", drops.to_json()},
              {"duplicates", duplicated.to_json()},
              {"reordered", reordered},
              {"last_original_dropped", last_original_dropped},
              {"delayed", delayed}}},
            {"send_errors", send_errors},
            {"received_duplicates", received_duplicates},
            {"received_out_of_order", received_out_of_order},
            {"delivered",
             {{"reliable", delivered_reliable},
              {"unreliable", delivered_unreliable},
              {"unsequenced", delivered_unsequenced},
              {"stale_unreliable", stale_unreliable}}},
            {"blocked_ticks", blocked_ticks},
            {"skipped_ticks", skipped_ticks},
            {"gave_up", gave_up}};
  if (with_rtt) {
    json samples = json::array();
    for (const RttSample& s : rtt) samples.push_back({{"t_ms", s.t_ms}, {"rtt_ms", s.rtt_ms}});
    j["rtt_samples"] = std::move(samples);
  }
  return j;
}

json report_json(const std::string& role, double elapsed_s, const std::vector<ConnReport>& conns,
                 uint64_t unknown_datagrams) {
  ConnCounters totals;
  json list = json::array();
  for (const ConnReport& c : conns) {
    totals += *c.counters;
    json j = {{"conn_id", c.conn_id}, {"local", c.local}, {"peer", c.peer}, {"state", c.state}};
    j.update(c.counters->to_json(true));
    list.push_back(std::move(j));
  }
  json totals_json = totals.to_json(false);
  totals_json["connections"] = conns.size();
  totals_json["unknown_datagrams"] = unknown_datagrams;
  return {{"generator", "grudp-endpoint"},
          {"format_version", 1},
          {"role", role},
          {"elapsed_s", elapsed_s},
          {"connections", std::move(list)},
          {"totals", std::move(totals_json)}};
}

std::string addr_string(uint32_t ip, uint16_t port) {
  in_addr a{htonl(ip)};
  char buf[INET_ADDRSTRLEN] = {};
  inet_ntop(AF_INET, &a, buf, sizeof buf);
  return std::string(buf) + ":" + std::to_string(port);
}

}  // namespace grudp_ep
