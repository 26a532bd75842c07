#include "cli/lab_qlog.h"

#include <array>
#include <fstream>
#include <map>

#include "core/error.h"

using nlohmann::json;

namespace rudp::cli {
namespace {

struct Totals {
  uint64_t sent = 0, lost = 0, pto_expired = 0, stream_resends = 0, datagrams = 0;
  std::vector<std::array<double, 4>> rtt;
  std::map<uint64_t, uint64_t> stream_sent_up_to;  // stream -> highest end sent

  void packetSent(const json& data) {
    ++sent;
    for (const json& f : data.value("frames", json::array())) {
      const std::string type = f.value("frame_type", "");
      datagrams += type == "datagram";
      if (type != "stream") continue;
      const uint64_t offset = f.value("offset", uint64_t{0});
      auto [it, fresh] = stream_sent_up_to.try_emplace(f.at("stream_id").get<uint64_t>(), 0);
      stream_resends += !fresh && offset < it->second;
      it->second = std::max(it->second, offset + f.value("length", uint64_t{0}));
    }
  }
  void metricsUpdated(const json& data) {
    if (!data.contains("latest_rtt")) return;
    const std::array<double, 4> v{data.at("min_rtt").get<double>(), data.at("smoothed_rtt").get<double>(),
                                  data.at("latest_rtt").get<double>(), data.at("rtt_variance").get<double>()};
    if (rtt.empty() || rtt.back() != v) rtt.push_back(v);
  }
  void record(const json& j) {
    const std::string name = j.value("name", "");
    const json& data = j.contains("data") ? j.at("data") : json::object();
    if (name == "transport:packet_sent") packetSent(data);
    if (name == "recovery:packet_lost") ++lost;
    if (name == "recovery:metrics_updated") metricsUpdated(data);
    pto_expired += name == "recovery:loss_timer_updated" && data.value("event_type", "") == "expired" &&
                   data.value("timer_type", "") == "pto";
  }
};

}  // namespace

json summariseQlog(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error("qlog " + path + ": cannot be read");
  Totals t;
  std::string line;
  for (size_t number = 1; std::getline(in, line); ++number) {
    if (!line.empty() && line[0] == '\x1e') line.erase(0, 1);
    const json j = json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) throw Error("qlog " + path + " line " + std::to_string(number) + ": not JSON");
    try {
      t.record(j);
    } catch (const json::exception& e) {
      throw Error("qlog " + path + " line " + std::to_string(number) + ": " + e.what());
    }
  }
  return {{"packets_sent", t.sent},
          {"packets_lost", t.lost},
          {"pto_expired", t.pto_expired},
          {"rtt_updates", t.rtt.size()},
          {"min_rtt_ms", t.rtt.empty() ? json(nullptr) : json(t.rtt.back()[0])},
          {"stream_resends", t.stream_resends},
          {"datagrams_sent", t.datagrams}};
}

}  // namespace rudp::cli
