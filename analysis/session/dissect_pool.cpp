#include "session/dissect_pool.h"

#include <pthread.h>

#include <string>

namespace rudp {

DissectPool::DissectPool(const DissectorOptions& opts, unsigned lanes) {
  if (lanes == 0) lanes = 1;
  for (unsigned i = 0; i < lanes; ++i) {
    hosts_.push_back(std::make_unique<LuaHost>());
    hosts_.back()->setRepeatLoad(i > 0);
    loadDissectors(*hosts_.back(), opts);
  }
  // One lane dissects on the calling thread inside waitFor(). Several lanes
  // each get a thread, and the calling thread reads and decodes meanwhile.
  if (lanes == 1) return;
  inbox_.resize(lanes);
  for (unsigned i = 0; i < lanes; ++i)
    threads_.emplace_back([this, i] {
      // Named for profilers (perf, hotspot): "rudp-lua-1", ...
      pthread_setname_np(pthread_self(), ("rudp-lua-" + std::to_string(i + 1)).c_str());
      work(i);
    });
}

DissectPool::~DissectPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  for (auto& t : threads_) t.join();
}

uint32_t DissectPool::laneOf(const DecodedPacket& p) const {
  if (hosts_.size() == 1) return 0;
  // Symmetric in the two endpoints, so both directions share a lane.
  // An ICMP error goes where the datagram it quotes went: the dissector that
  // sees it keeps that conversation's state, as Wireshark's one dissector does.
  const UdpEnds e = dissectedUdpEnds(p).value_or(UdpEnds{});
  uint64_t a = 0, b = 0;
  for (int i = 0; i < 16; ++i) {
    a = a * 131 + e.src.bytes[i];
    b = b * 131 + e.dst.bytes[i];
  }
  a = a * 65599 + e.sport;
  b = b * 65599 + e.dport;
  uint64_t h = (a ^ b) * 0x9E3779B97F4A7C15ull;
  return static_cast<uint32_t>((h >> 32) % hosts_.size());
}

void DissectPool::setFirstTimestamp(int64_t ts_ns) {
  for (auto& h : hosts_) h->setFirstTimestamp(ts_ns);
}

void DissectPool::dissectLane(PacketBatch& b, unsigned lane) {
  LuaHost& host = *hosts_[lane];
  for (size_t i = 0; i < b.size; ++i) {
    BatchSlot& s = b.slots[i];
    if (s.lane != lane) continue;
    host.dissect(s.pkt, false, s.res);
  }
}

void DissectPool::submit(PacketBatch& b) {
  if (threads_.empty()) return;
  {
    std::lock_guard<std::mutex> lock(mu_);
    b.lanes_pending = static_cast<unsigned>(threads_.size());
    for (auto& q : inbox_) q.push_back(&b);
  }
  cv_.notify_all();
}

void DissectPool::drain() {
  std::unique_lock<std::mutex> lock(mu_);
  for (auto& q : inbox_) q.clear();
  doneCv_.wait(lock, [this] { return busy_ == 0; });
}

void DissectPool::waitFor(PacketBatch& b) {
  if (threads_.empty()) {
    dissectLane(b, 0);
    return;
  }
  std::unique_lock<std::mutex> lock(mu_);
  doneCv_.wait(lock, [&b] { return b.lanes_pending == 0; });
}

void DissectPool::work(unsigned lane) {
  std::deque<PacketBatch*>& inbox = inbox_[lane];
  for (;;) {
    PacketBatch* b;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [&] { return stop_ || !inbox.empty(); });
      if (stop_) return;
      b = inbox.front();
      inbox.pop_front();
      ++busy_;
    }
    dissectLane(*b, lane);
    {
      std::lock_guard<std::mutex> lock(mu_);
      --busy_;
      --b->lanes_pending;
      doneCv_.notify_all();
    }
  }
}

}  // namespace rudp
