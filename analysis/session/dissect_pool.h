// Runs the Lua dissectors of a batch on several Lua states at once.
//
// Each lane owns one LuaHost loaded with the same files and preferences, so
// field ids agree. A flow always goes to the same lane and a lane dissects
// its packets in capture order, so a dissector that keeps per-flow state
// sees that flow's packets in order, as in Wireshark. Several batches may be
// in flight: the caller submits them and waits for each, oldest first.
#pragma once
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "lua/dissector_files.h"
#include "session/packet_batch.h"

namespace rudp {

class DissectPool {
 public:
  // `lanes` >= 1. With one lane no thread is started and waitFor() dissects
  // inline; with several, each lane has a thread.
  DissectPool(const DissectorOptions& opts, unsigned lanes);
  ~DissectPool();
  DissectPool(const DissectPool&) = delete;
  DissectPool& operator=(const DissectPool&) = delete;

  unsigned lanes() const { return static_cast<unsigned>(hosts_.size()); }
  LuaHost& host(unsigned lane = 0) { return *hosts_[lane]; }
  // The lane of a packet: a hash of its unordered endpoint pair.
  uint32_t laneOf(const DecodedPacket& p) const;

  void setFirstTimestamp(int64_t ts_ns);
  // Queues `b` for dissection; `b` stays the caller's, untouched until
  // waitFor(b) returns. Batches are dissected in the order submitted.
  void submit(PacketBatch& b);
  void waitFor(PacketBatch& b);
  // Forgets the batches not started and waits for those being dissected:
  // afterwards no lane touches a submitted batch.
  void drain();

 private:
  void work(unsigned lane);
  void dissectLane(PacketBatch& b, unsigned lane);

  std::vector<std::unique_ptr<LuaHost>> hosts_;
  std::vector<std::thread> threads_;
  std::mutex mu_;
  std::condition_variable cv_, doneCv_;
  std::vector<std::deque<PacketBatch*>> inbox_;  // per lane thread, oldest first
  unsigned busy_ = 0;                            // lanes dissecting a batch now
  bool stop_ = false;
};

}  // namespace rudp
