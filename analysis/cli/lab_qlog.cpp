#include "cli/lab_qlog.h"

#include <array>
#include <fstream>
#include <map>

#include "core/error.h"

using nlohmann::json;

namespace rudp::cli {
namespace {

// quic-go's PTO (QueueProbePacket) gives the oldest outstanding packet of
// the probed space up before each probe it sends: the packet leaves its
// history without a packet_lost, so an ACK that later names it as the
// largest takes no RTT sample in quic-go, where RFC 9002 (and the analysis)
// takes one. Replayed from the qlog: a PTO expiry queues two probes, each
// ack-eliciting packet sent while probes are queued is one (and gives one
// packet up), an ACK that newly acknowledges a packet quic-go still holds
// clears the queue.
class ProbeReplay {
 public:
  void ptoExpired(int space) { probes_left_ += 2, probe_space_ = space; }
  void sent(int space, uint64_t pn, bool ack_eliciting, bool mtu_probe) {
    if (ack_eliciting && probes_left_ > 0) {
      --probes_left_;
      giveUpOldest(probe_space_);
    }
    spaces_[space][pn] = {.outstanding = ack_eliciting && !mtu_probe, .ack_eliciting = ack_eliciting};
  }
  void lost(int space, uint64_t pn) {
    if (auto it = spaces_[space].find(pn); it != spaces_[space].end()) it->second.declared_lost = true;
  }
  void acked(int space, const json& ranges) {
    auto& packets = spaces_[space];
    bool held_acked = false, largest_given_up = false, eliciting = false;
    const uint64_t largest = largestOf(ranges);
    for (auto& [pn, p] : packets) {
      if (p.acked || !inRanges(ranges, pn)) continue;
      p.acked = true;
      if (p.declared_lost) {  // RFC 9002: no longer in flight, so not newly acknowledged
        ++spurious_;
        continue;
      }
      eliciting |= p.ack_eliciting;
      held_acked |= !p.given_up;
      largest_given_up |= pn == largest && p.given_up;
    }
    unsampled_ += largest_given_up && eliciting;
    if (held_acked) probes_left_ = 0;
  }
  uint64_t givenUp() const { return given_up_; }
  uint64_t spuriousLosses() const { return spurious_; }
  uint64_t unsampledAcks() const { return unsampled_; }

 private:
  struct Sent {
    bool outstanding = false, ack_eliciting = false, acked = false, declared_lost = false, given_up = false;
  };
  void giveUpOldest(int space) {
    for (auto& [pn, p] : spaces_[space])
      if (p.outstanding && !p.acked && !p.declared_lost && !p.given_up) {
        p.given_up = true;
        ++given_up_;
        return;
      }
  }
  // qlog acked_ranges: [[pn] or [first, last], ...]
  static bool inRanges(const json& ranges, uint64_t pn) {
    for (const json& r : ranges)
      if (pn >= r.front().get<uint64_t>() && pn <= r.back().get<uint64_t>()) return true;
    return false;
  }
  static uint64_t largestOf(const json& ranges) {
    uint64_t largest = 0;
    for (const json& r : ranges) largest = std::max(largest, r.back().get<uint64_t>());
    return largest;
  }
  std::array<std::map<uint64_t, Sent>, 3> spaces_;
  int probes_left_ = 0, probe_space_ = 0;
  uint64_t given_up_ = 0, unsampled_ = 0, spurious_ = 0;
};

// qlog's packet types and timer spaces to a packet number space.
int space(const std::string& name) {
  if (name == "initial") return 0;
  if (name == "handshake") return 1;
  return 2;  // 1RTT, 0RTT, application_data
}

bool ackEliciting(const json& frames) {
  for (const json& f : frames) {
    const std::string type = f.value("frame_type", "");
    if (type != "ack" && type != "padding" && type != "connection_close") return true;
  }
  return false;
}

struct Totals {
  uint64_t sent = 0, lost = 0, pto_expired = 0, stream_resends = 0, datagrams = 0;
  std::vector<std::array<double, 4>> rtt;
  std::map<uint64_t, uint64_t> stream_sent_up_to;  // stream -> highest end sent
  ProbeReplay probes;

  void packetSent(const json& data) {
    ++sent;
    const json frames = data.value("frames", json::array());
    const json& header = data.at("header");
    probes.sent(space(header.value("packet_type", "")), header.at("packet_number").get<uint64_t>(),
                ackEliciting(frames), data.value("is_mtu_probe_packet", false));
    for (const json& f : frames) {
      const std::string type = f.value("frame_type", "");
      datagrams += type == "datagram";
      if (type != "stream") continue;
      const uint64_t offset = f.value("offset", uint64_t{0});
      auto [it, fresh] = stream_sent_up_to.try_emplace(f.at("stream_id").get<uint64_t>(), 0);
      stream_resends += !fresh && offset < it->second;
      it->second = std::max(it->second, offset + f.value("length", uint64_t{0}));
    }
  }
  void packetReceived(const json& data) {
    const int s = space(data.at("header").value("packet_type", ""));
    for (const json& f : data.value("frames", json::array()))
      if (f.value("frame_type", "") == "ack") probes.acked(s, f.at("acked_ranges"));
  }
  void packetLost(const json& data) {
    ++lost;
    const json& header = data.at("header");
    probes.lost(space(header.value("packet_type", "")), header.at("packet_number").get<uint64_t>());
  }
  void metricsUpdated(const json& data) {
    if (!data.contains("latest_rtt")) return;
    const std::array<double, 4> v{data.at("min_rtt").get<double>(), data.at("smoothed_rtt").get<double>(),
                                  data.at("latest_rtt").get<double>(), data.at("rtt_variance").get<double>()};
    if (rtt.empty() || rtt.back() != v) rtt.push_back(v);
  }
  void timerUpdated(const json& data) {
    if (data.value("event_type", "") != "expired" || data.value("timer_type", "") != "pto") return;
    ++pto_expired;
    probes.ptoExpired(space(data.value("packet_number_space", "")));
  }
  void record(const json& j) {
    const std::string name = j.value("name", "");
    const json& data = j.contains("data") ? j.at("data") : json::object();
    if (name == "transport:packet_sent") packetSent(data);
    if (name == "transport:packet_received") packetReceived(data);
    if (name == "recovery:packet_lost") packetLost(data);
    if (name == "recovery:metrics_updated") metricsUpdated(data);
    if (name == "recovery:loss_timer_updated") timerUpdated(data);
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
          {"packets_lost_spurious", t.probes.spuriousLosses()},
          {"pto_expired", t.pto_expired},
          {"rtt_updates", t.rtt.size()},
          {"pto_given_up", t.probes.givenUp()},
          {"pto_given_up_acked_largest", t.probes.unsampledAcks()},
          {"min_rtt_ms", t.rtt.empty() ? json(nullptr) : json(t.rtt.back()[0])},
          {"stream_resends", t.stream_resends},
          {"datagrams_sent", t.datagrams}};
}

}  // namespace rudp::cli
