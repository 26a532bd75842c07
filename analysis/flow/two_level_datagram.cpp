#include "flow/two_level_datagram.h"

namespace rudp {

TwoLevelExtractor::TwoLevelExtractor(const TwoLevelContract& contract, size_t fieldCount)
    : c_(contract), slot_(fieldCount, None) {
  auto set = [&](int field, Slot s) {
    if (field >= 0 && static_cast<size_t>(field) < slot_.size()) slot_[field] = s;
  };
  set(c_.number, Number);
  set(c_.ack_first, AckFirst);
  set(c_.ack_last, AckLast);
  set(c_.nak, Nak);
  set(c_.msg_id, MsgId);
  set(c_.msg_class, MsgClass);
  set(c_.order_index, OrderIndex);
  set(c_.order_channel, OrderChannel);
  set(c_.split_id, SplitId);
  set(c_.split_index, SplitIndex);
  set(c_.split_count, SplitCount);
  set(c_.msg_length, MsgLength);
  set(c_.msg_segment, MsgStart);  // last: the marker always starts a message
}

void TwoLevelExtractor::read(Slot slot, uint64_t value, TwoLevelDatagram& out) const {
  const auto u32 = static_cast<uint32_t>(value);
  if (slot == Number) {
    out.repeated_number |= out.has_number;
    out.has_number = true;
    out.number = u32;
    return;
  }
  if (slot == Nak) {
    out.nak = value != 0;
    return;
  }
  if (slot == AckFirst) {
    out.acks.push_back({u32, u32});
    return;
  }
  if (slot == AckLast) {
    if (!out.acks.empty()) out.acks.back().last = u32;
    return;
  }
  if (slot == MsgStart) {
    out.messages.emplace_back();
    return;
  }
  if (out.messages.empty()) return;  // a message field before any message marker
  Message& m = out.messages.back();
  switch (slot) {
    case MsgId:
      m.has_id = true;
      m.id = u32;
      break;
    case MsgClass: {
      auto it = c_.classes.find(value);
      if (it != c_.classes.end()) m.cls = it->second;
      break;
    }
    case OrderIndex:
      m.has_order = true;
      m.order_index = u32;
      break;
    case OrderChannel: m.channel = u32; break;
    case SplitId:
      m.split = true;
      m.split_id = u32;
      break;
    case SplitIndex: m.split_index = u32; break;
    case SplitCount: m.split_count = u32; break;
    case MsgLength: m.length = c_.msg_length_in_bits ? static_cast<uint32_t>((value + 7) / 8) : u32; break;
    default: break;
  }
}

void TwoLevelExtractor::extract(const DissectResult& r, TwoLevelDatagram& out,
                                std::vector<Segment>& segs) const {
  out.clear();
  segs.clear();
  for (const FieldValue& v : r.values)
    if (v.field >= 0 && static_cast<size_t>(v.field) < slot_.size() && slot_[v.field] != None)
      read(slot_[v.field], v.u, out);
  for (const Message& m : out.messages) {
    Segment s;
    s.role = SegmentRole::Data;
    s.reliability = isReliable(m.cls) ? Reliability::Reliable : Reliability::Unreliable;
    if (m.has_id) {
      s.seq = m.id;
      s.has |= Segment::Seq;
    }
    if (m.has_order) {
      s.channel = m.channel;
      s.has |= Segment::Channel;
    }
    s.length = m.length;
    s.has |= Segment::Length;
    segs.push_back(s);
  }
  if (segs.empty() && !out.acks.empty()) {
    Segment s;
    s.role = SegmentRole::Ack;
    s.consumes_seq = false;
    segs.push_back(s);
  }
}

}  // namespace rudp
