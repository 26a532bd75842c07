// Groups a stream of items by key (a connection, or a connection and
// direction) into chunks, so each chunk can be written in one piece and a
// small directory table can point at it: the per-connection queries then
// read a few contiguous runs instead of scanning a table of all connections.
//
// A key's chunk is written when it holds `chunk` items, when its key is
// done (flush(key): the connection closed) or, all of them, at flushAll().
// Memory stays bounded: past `maxHeld` items in total every chunk is
// written, small or not. Chunks are written in a deterministic order (by key
// on flushAll), so the same input always gives the same database.
#pragma once
#include <algorithm>
#include <cstddef>
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
    auto it = held_.try_emplace(key).first;
    it->second.push_back(item);
    ++held_count_;
    if (it->second.size() >= chunk_) write(it);
    else if (held_count_ > maxHeld_) flushAll();
  }

  void flush(const Key& key) {
    auto it = held_.find(key);
    if (it != held_.end()) write(it);
  }

  void flushAll() {
    std::vector<Key> keys;
    keys.reserve(held_.size());
    for (const auto& kv : held_) keys.push_back(kv.first);
    std::sort(keys.begin(), keys.end());
    for (const Key& k : keys) write_(k, held_[k]);
    held_.clear();
    held_count_ = 0;
  }

 private:
  // Writes a key's chunk and forgets the key: its buffer's memory goes too,
  // so many long connections do not each keep a chunk-sized buffer.
  void write(typename std::unordered_map<Key, std::vector<Item>>::iterator it) {
    write_(it->first, it->second);
    held_count_ -= it->second.size();
    held_.erase(it);
  }

  size_t chunk_, maxHeld_;
  Write write_;
  std::unordered_map<Key, std::vector<Item>> held_;
  size_t held_count_ = 0;
};

}  // namespace rudp::sql
