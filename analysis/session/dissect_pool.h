// Runs the Lua dissectors of a batch on several Lua states at once.
//
// Each lane owns one LuaHost loaded with the same files and preferences, so
// field ids agree. A flow always goes to the same lane and a lane dissects
// its packets in capture order, so a dissector that keeps per-flow state
// sees that flow's packets in order, as in Wireshark. dissect() returns only
// when the whole batch is done: to the caller the pool is synchronous.
#pragma once
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "session/dissectors.h"
#include "session/packet_batch.h"

namespace rudp {

class DissectPool {
 public:
  // `lanes` >= 1. With one lane no thread is started and dissect() runs inline.
  DissectPool(const DissectorOptions& opts, unsigned lanes);
  ~DissectPool();
  DissectPool(const DissectPool&) = delete;
  DissectPool& operator=(const DissectPool&) = delete;

  unsigned lanes() const { return static_cast<unsigned>(hosts_.size()); }
  LuaHost& host(unsigned lane = 0) { return *hosts_[lane]; }
  // The lane of a packet: a hash of its unordered endpoint pair.
  uint32_t laneOf(const DecodedPacket& p) const;

  void setFirstTimestamp(int64_t ts_ns);
  // Starts dissecting `b` on the workers; finish with wait().
  void start(PacketBatch& b);
  void wait();

 private:
  void work(unsigned lane);
  void dissectLane(PacketBatch& b, unsigned lane);

  std::vector<std::unique_ptr<LuaHost>> hosts_;
  std::vector<std::thread> threads_;
  std::mutex mu_;
  std::condition_variable cv_, doneCv_;
  PacketBatch* batch_ = nullptr;
  uint64_t generation_ = 0;
  unsigned pending_ = 0;
  bool stop_ = false;
};

}  // namespace rudp
