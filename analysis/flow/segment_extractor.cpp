#include "flow/segment_extractor.h"

#include <utility>

namespace rudp {

SegmentExtractor::SegmentExtractor(const Contract& contract, size_t fieldCount)
    : c_(contract), slot_(fieldCount, None), extra_(fieldCount, 0) {
  auto more = [&](int field, int bit) {
    if (field >= 0 && static_cast<size_t>(field) < extra_.size()) extra_[field] |= uint8_t(1u << bit);
  };
  more(c_.seq_space, 0);
  for (size_t i = 0; i < c_.unreliable_seq.size() && i < Segment::kNumberings; ++i) {
    more(c_.unreliable_seq[i].field, 1 + int(i));
    more(c_.unreliable_seq[i].group, 3 + int(i));
    more(c_.unreliable_seq[i].space, 5 + int(i));
  }
  auto set = [&](int field, Slot s) {
    if (field >= 0 && static_cast<size_t>(field) < slot_.size()) slot_[field] = s;
  };
  // Later assignments win when a dissector maps one field to two meanings;
  // the segment marker is assigned last so it always starts a segment.
  set(c_.conn_id, ConnId);
  set(c_.kind, Kind);
  set(c_.seq, Seq);
  set(c_.reliable, Reliable);
  set(c_.unsequenced, Unseq);
  set(c_.ack, Ack);
  set(c_.ack_bitmap, AckBits);
  set(c_.ack_valid, AckValid);
  set(c_.una, Una);
  set(c_.ts, Ts);
  set(c_.ts_echo, Echo);
  set(c_.ts_echo_valid, EchoValid);
  set(c_.channel, Channel);
  set(c_.length, Length);
  set(c_.window, Window);
  set(c_.nak_first, NakFirst);
  set(c_.nak_last, NakLast);
  if (c_.segment >= 0 && c_.segment != c_.conn_id && c_.segment != c_.kind) set(c_.segment, SegStart);
}

void SegmentExtractor::finish(Segment& s, bool ackValid, bool echoValid, bool reliable,
                              bool unsequenced) const {
  if (!ackValid) s.has &= ~(Segment::Ack | Segment::AckBits);
  if (!echoValid) s.has &= ~Segment::Echo;
  Reliability rel = Reliability::FromField;
  const KindRole* kind = nullptr;
  if (s.is(Segment::Kind)) {
    auto it = c_.kinds.find(s.kind);
    if (it != c_.kinds.end()) kind = &it->second;
  } else if (c_.kind_absent) {
    kind = &*c_.kind_absent;
  }
  if (kind) {
    s.role = kind->role;
    s.consumes_seq = kind->consumes_seq;
    rel = kind->reliability;
  }
  if (rel == Reliability::FromField) {
    rel =
        unsequenced ? Reliability::Unsequenced : (reliable ? Reliability::Reliable : Reliability::Unreliable);
    // An unsequenced packet may still be reliable; reliability wins for loss accounting.
    if (reliable) rel = Reliability::Reliable;
  }
  s.reliability = rel;
  if (!s.consumes_seq) s.has &= ~Segment::Seq;
  if (c_.seq_reliable_only && rel != Reliability::Reliable) s.has &= ~Segment::Seq;
}

void SegmentExtractor::extract(const DissectResult& r, std::vector<Segment>& out) const {
  out.clear();
  Segment cur;     // the segment being filled
  Segment shared;  // values before the first segment marker apply to all segments
  bool inSegment = c_.segment < 0;
  bool any = false;
  // A declared validity field must be present and true; undeclared means always valid.
  const bool ackDefault = c_.ack_valid < 0, echoDefault = c_.ts_echo_valid < 0;
  bool ackValid = ackDefault, echoValid = echoDefault, reliable = false, unsequenced = false;
  bool sAckValid = ackDefault, sEchoValid = echoDefault, sReliable = false, sUnseq = false;

  // A loss list's entries after the first: each becomes a segment of its own
  // that carries only the entry and what identifies the segment.
  std::vector<std::pair<uint32_t, uint32_t>> moreNaks;
  auto flush = [&]() {
    if (!any) return;
    finish(cur, ackValid, echoValid, reliable, unsequenced);
    out.push_back(cur);
    for (const auto& [first, last] : moreNaks) {
      Segment n = cur;
      n.has &= Segment::ConnId | Segment::Kind | Segment::Ts | Segment::Nak;
      n.consumes_seq = false;
      n.nak_first = first;
      n.nak_last = last;
      out.push_back(n);
    }
    moreNaks.clear();
  };
  auto begin = [&]() {
    cur = shared;
    any = false;
    ackValid = sAckValid;
    echoValid = sEchoValid;
    reliable = sReliable;
    unsequenced = sUnseq;
  };

  for (const FieldValue& v : r.values) {
    if (v.field < 0 || static_cast<size_t>(v.field) >= slot_.size()) continue;
    Slot slot = slot_[v.field];
    const uint8_t extra = extra_[v.field];
    if (slot == None && extra == 0) continue;
    bool isMarker = slot == SegStart || (c_.segment >= 0 && v.field == c_.segment);
    if (isMarker) {
      if (inSegment)
        flush();
      else {
        shared = cur;
        sAckValid = ackValid;
        sEchoValid = echoValid;
        sReliable = reliable;
        sUnseq = unsequenced;
      }
      inSegment = true;
      begin();
      any = true;
      if (slot == SegStart) continue;
    }
    Segment& s = cur;
    const auto u32 = static_cast<uint32_t>(v.u);
    switch (slot) {
      case ConnId:
        s.conn_id = v.u;
        s.has |= Segment::ConnId;
        break;
      case Kind:
        s.kind = v.u;
        s.has |= Segment::Kind;
        break;
      case Seq:
        s.seq = u32;
        s.has |= Segment::Seq;
        break;
      case Reliable: reliable = v.u != 0; break;
      case Unseq: unsequenced = v.u != 0; break;
      case Ack:
        s.ack = u32;
        s.has |= Segment::Ack;
        break;
      case AckBits:
        s.ack_bits = u32;
        s.has |= Segment::AckBits;
        break;
      case AckValid: ackValid = v.u != 0; break;
      case Una:
        s.una = u32;
        s.has |= Segment::Una;
        break;
      case Ts:
        s.ts = u32;
        s.has |= Segment::Ts;
        break;
      case Echo:
        s.ts_echo = u32;
        s.has |= Segment::Echo;
        break;
      case EchoValid: echoValid = v.u != 0; break;
      case Channel:
        s.channel = u32;
        s.has |= Segment::Channel;
        break;
      case Length:
        s.length = u32;
        s.has |= Segment::Length;
        break;
      case Window:
        s.window = u32;
        s.has |= Segment::Window;
        break;
      case NakFirst:
        if (s.is(Segment::Nak))
          moreNaks.emplace_back(u32, u32);
        else {
          s.nak_first = s.nak_last = u32;
          s.has |= Segment::Nak;
        }
        break;
      case NakLast:
        if (!moreNaks.empty())
          moreNaks.back().second = u32;
        else if (s.is(Segment::Nak))
          s.nak_last = u32;
        break;
      case None:
      case SegStart: break;
    }
    if (extra) {
      if (extra & 1) {
        s.space = u32;
        s.has |= Segment::Space;
      }
      for (int i = 0; i < Segment::kNumberings; ++i) {
        if (extra & (1u << (1 + i))) {
          s.un[i] = u32;
          s.un_has |= uint8_t(1u << i);
        }
        if (extra & (1u << (3 + i))) {
          s.ug[i] = u32;
          s.un_has |= uint8_t(1u << (2 + i));
        }
        if (extra & (1u << (5 + i))) {
          s.us[i] = u32;
          s.un_has |= uint8_t(1u << (4 + i));
        }
      }
    }
    if (inSegment) any = true;
  }
  if (inSegment) flush();
}

}  // namespace rudp
