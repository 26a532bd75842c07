#include "decode/ip_reassembler.h"

#include <algorithm>
#include <cstring>

namespace rudp {

namespace {
// The largest datagram payload: IPv4's total length minus the smallest
// header, IPv6's payload length minus the fragment header.
uint32_t maxPayload(const IpReassembler::Key& key) { return key.src.family == 6 ? 65535 - 8 : 65535 - 20; }
}  // namespace

IpReassembler::Result IpReassembler::add(const Key& key, int64_t ts_ns, uint32_t offset, bool more,
                                         const uint8_t* data, uint32_t len, wire::Span& whole,
                                         uint64_t frame) {
  expire(ts_ns);
  const uint32_t end = offset + len;
  if (end > maxPayload(key)) return Result::Invalid;
  // Every fragment but the last carries a multiple of 8 bytes (RFC 791, RFC 8200).
  if (more && (len == 0 || len % 8 != 0)) return Result::Invalid;

  auto it = std::find_if(pending_.begin(), pending_.end(), [&](const Datagram& d) { return d.key == key; });
  if (it == pending_.end()) {
    makeRoom(end);
    pending_.emplace_back();
    it = pending_.end() - 1;
    it->key = key;
    it->first_ts = ts_ns;
  }
  Datagram& d = *it;

  // A last fragment fixes the size; anything disagreeing with it is ignored.
  if (d.has_total && end > d.total) return Result::Invalid;
  if (!more) {
    if (d.has_total && end != d.total) return Result::Invalid;
    if (!d.pieces.empty() && d.pieces.back().second > end) return Result::Invalid;
  }
  if (d.pieces.size() >= limits_.max_pieces) {
    drop(size_t(it - pending_.begin()));
    return Result::Invalid;
  }
  if (!more) {
    d.has_total = true;
    d.total = end;
  }

  if (end > d.buf.size()) {
    const size_t grow = (d.has_total ? d.total : end) - d.buf.size();
    if (bytes_ + grow > limits_.max_bytes) {
      // Too big to hold next to the others: evict older datagrams first.
      const Key keep = d.key;
      while (bytes_ + grow > limits_.max_bytes && !pending_.empty() && !(pending_[0].key == keep)) drop(0);
      it = std::find_if(pending_.begin(), pending_.end(), [&](const Datagram& x) { return x.key == keep; });
      if (bytes_ + grow > limits_.max_bytes) {
        drop(size_t(it - pending_.begin()));
        return Result::Invalid;
      }
    }
    bytes_ += grow;
    it->buf.resize(it->buf.size() + grow);
  }
  Datagram& g = *it;
  copyGaps(g, offset, end, data);
  addPiece(g, offset, end);
  g.fragments.push_back({frame, offset, len});

  if (g.has_total && g.pieces.size() == 1 && g.pieces[0].first == 0 && g.pieces[0].second == g.total) {
    const uint32_t total = g.total;
    bytes_ -= g.buf.size();
    completed_.swap(g.buf);
    completed_.resize(total);
    completed_pieces_.swap(g.fragments);
    pending_.erase(it);
    whole = {completed_.data(), total, total};
    return Result::Complete;
  }
  return Result::Pending;
}

void IpReassembler::expire(int64_t now) {
  for (size_t i = 0; i < pending_.size();) {
    if (now - pending_[i].first_ts > limits_.timeout_ns)
      drop(i);
    else
      ++i;
  }
}

void IpReassembler::drop(size_t index) {
  bytes_ -= pending_[index].buf.size();
  pending_.erase(pending_.begin() + std::ptrdiff_t(index));
  ++dropped_;
}

// Evicts the oldest datagrams until one more (of `extraBytes`) fits.
void IpReassembler::makeRoom(size_t extraBytes) {
  while (!pending_.empty() &&
         (pending_.size() >= limits_.max_datagrams || bytes_ + extraBytes > limits_.max_bytes))
    drop(0);
}

// Copies only the bytes of [begin, end) that no earlier fragment supplied.
void IpReassembler::copyGaps(Datagram& d, uint32_t begin, uint32_t end, const uint8_t* data) {
  uint32_t pos = begin;
  for (const auto& [b, e] : d.pieces) {
    if (pos >= end) break;
    if (e <= pos) continue;
    if (b > pos) std::memcpy(d.buf.data() + pos, data + (pos - begin), std::min(b, end) - pos);
    pos = std::max(pos, e);
  }
  if (pos < end) std::memcpy(d.buf.data() + pos, data + (pos - begin), end - pos);
}

void IpReassembler::addPiece(Datagram& d, uint32_t begin, uint32_t end) {
  if (begin == end) return;
  auto& v = d.pieces;
  auto it = std::lower_bound(v.begin(), v.end(), std::make_pair(begin, end));
  it = v.insert(it, {begin, end});
  // Merge with neighbours that touch or overlap.
  if (it != v.begin() && std::prev(it)->second >= it->first) {
    auto prev = std::prev(it);
    prev->second = std::max(prev->second, it->second);
    it = v.erase(it);
    it = std::prev(it);
  }
  while (std::next(it) != v.end() && std::next(it)->first <= it->second) {
    it->second = std::max(it->second, std::next(it)->second);
    v.erase(std::next(it));
  }
}

}  // namespace rudp
