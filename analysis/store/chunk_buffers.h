// Groups a stream of items by key (a connection, or a connection and
// direction) into chunks, so each chunk can be written in one piece and a
// small directory table can point at it: the per-connection queries then
// read a few contiguous runs instead of scanning a table of all connections.
//
// A key's chunk is written when it holds `chunk` items, when its key is
// done (flush(key): the connection closed) or at flushAll(). Memory stays
// bounded: past `maxHeld` items in total the oldest chunk is written, small
// or not. One chunk at a time, not all at once, so the writer thread never
// stalls the pipeline with a burst. Chunks are written in an order that
// depends only on the items, so the same input always gives the same database.
#pragma once
#include <cstddef>
#include <cstdint>
#include <deque>
#include <unordered_map>
#include <utility>
#include <vector>

namespace rudp::sql {

template <class Key, class Item, class Write>
class ChunkBuffers {
 public:
  // `write(key, items)` stores one chunk (items in order of add()).
  ChunkBuffers(size_t chunk, size_t maxHeld, Write write)
      : chunk_(chunk), maxHeld_(maxHeld), write_(std::move(write)) {}

  void add(const Key& key, const Item& item) {
    auto [it, fresh] = held_.try_emplace(key);
    if (fresh) {
      it->second.age = next_age_++;
      by_age_.emplace_back(key, it->second.age);
    }
    it->second.items.push_back(item);
    ++held_count_;
    if (it->second.items.size() >= chunk_) write(it);
    while (held_count_ > maxHeld_) writeOldest();
  }

  void flush(const Key& key) {
    auto it = held_.find(key);
    if (it != held_.end()) write(it);
  }

  void flushAll() {
    while (!held_.empty()) writeOldest();
    by_age_.clear();
  }

 private:
  struct Held {
    std::vector<Item> items;
    uint64_t age = 0;  // creation order of this buffer
  };
  using Iter = typename std::unordered_map<Key, Held>::iterator;

  // Writes a key's chunk and forgets the key: its buffer's memory goes too,
  // so many long connections do not each keep a chunk-sized buffer.
  void write(Iter it) {
    write_(it->first, it->second.items);
    held_count_ -= it->second.items.size();
    held_.erase(it);
    // by_age_ keeps an entry for the written buffer; drop such entries when
    // they outnumber the live ones, so the queue does not grow with the input.
    if (by_age_.size() > 2 * held_.size() + 64) compact();
  }

  void writeOldest() {
    for (;;) {
      auto [key, age] = by_age_.front();
      by_age_.pop_front();
      auto it = held_.find(key);
      if (it != held_.end() && it->second.age == age) {
        write(it);
        return;
      }
    }
  }

  void compact() {
    std::deque<std::pair<Key, uint64_t>> live;
    for (const auto& [key, age] : by_age_) {
      auto it = held_.find(key);
      if (it != held_.end() && it->second.age == age) live.emplace_back(key, age);
    }
    by_age_.swap(live);
  }

  size_t chunk_, maxHeld_;
  Write write_;
  std::unordered_map<Key, Held> held_;
  std::deque<std::pair<Key, uint64_t>> by_age_;  // live buffers oldest first, plus stale entries
  uint64_t next_age_ = 0;
  size_t held_count_ = 0;
};

}  // namespace rudp::sql
