#include "flow/segment_extractor.h"

#include <utility>

namespace rudp {

namespace {

using Part = Segment::Numbers::Part;
constexpr uint8_t kSeqSpaceBit = 1;
// Numbering i's part in a field's further meanings.
constexpr uint8_t numberBit(size_t i, Part part) { return uint8_t(1u << (1 + 3 * i + part)); }

}  // namespace

SegmentExtractor::SegmentExtractor(const Contract& contract, size_t fieldCount)
    : c_(contract), slot_(fieldCount, None), extra_(fieldCount, 0) {
  auto more = [&](int field, uint8_t bit) {
    if (field >= 0 && static_cast<size_t>(field) < extra_.size()) extra_[field] |= bit;
  };
  more(c_.seq_space, kSeqSpaceBit);
  for (size_t i = 0; i < c_.unreliable_seq.size() && i < Segment::kNumberings; ++i) {
    more(c_.unreliable_seq[i].field, numberBit(i, Part::Number));
    more(c_.unreliable_seq[i].group, numberBit(i, Part::Group));
    more(c_.unreliable_seq[i].space, numberBit(i, Part::Space));
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

void SegmentExtractor::finish(Segment& s, const Flags& f) const {
  if (!f.ack_valid) s.has &= ~(Segment::Ack | Segment::AckBits);
  if (!f.echo_valid) s.has &= ~Segment::Echo;
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
    rel = f.unsequenced ? Reliability::Unsequenced
                        : (f.reliable ? Reliability::Reliable : Reliability::Unreliable);
    // An unsequenced packet may still be reliable; reliability wins for loss accounting.
    if (f.reliable) rel = Reliability::Reliable;
  }
  s.reliability = rel;
  if (!s.consumes_seq) s.has &= ~Segment::Seq;
  if (c_.seq_reliable_only && rel != Reliability::Reliable) s.has &= ~Segment::Seq;
}

void SegmentExtractor::set(Slot slot, uint64_t value, Building& b, NakList& moreNaks) const {
  Segment& s = b.seg;
  const auto u32 = static_cast<uint32_t>(value);
  // A plain value: stored, and marked present.
  auto put = [&s](auto& field, auto v, Segment::Has has) {
    field = v;
    s.has |= has;
  };
  switch (slot) {
    case ConnId: put(s.conn_id, value, Segment::ConnId); break;
    case Kind: put(s.kind, value, Segment::Kind); break;
    case Seq: put(s.seq, u32, Segment::Seq); break;
    case Ack: put(s.ack, u32, Segment::Ack); break;
    case AckBits: put(s.ack_bits, u32, Segment::AckBits); break;
    case Una: put(s.una, u32, Segment::Una); break;
    case Ts: put(s.ts, u32, Segment::Ts); break;
    case Echo: put(s.ts_echo, u32, Segment::Echo); break;
    case Channel: put(s.channel, u32, Segment::Channel); break;
    case Length: put(s.length, u32, Segment::Length); break;
    case Window: put(s.window, u32, Segment::Window); break;
    case Reliable: b.flags.reliable = value != 0; break;
    case Unseq: b.flags.unsequenced = value != 0; break;
    case AckValid: b.flags.ack_valid = value != 0; break;
    case EchoValid: b.flags.echo_valid = value != 0; break;
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
}

void SegmentExtractor::setExtra(uint8_t extra, uint32_t value, Segment& s) {
  if (extra & kSeqSpaceBit) {
    s.space = value;
    s.has |= Segment::Space;
  }
  for (size_t i = 0; i < Segment::kNumberings; ++i)
    for (const Part part : {Part::Number, Part::Group, Part::Space})
      if (extra & numberBit(i, part)) s.numbers[i].set(part, value);
}

void SegmentExtractor::emit(Building& b, NakList& moreNaks, std::vector<Segment>& out) const {
  finish(b.seg, b.flags);
  out.push_back(b.seg);
  // A loss list's entries after the first: each a segment of its own that
  // carries only the entry and what identifies the segment.
  for (const auto& [first, last] : moreNaks) {
    Segment n = b.seg;
    n.has &= Segment::ConnId | Segment::Kind | Segment::Ts | Segment::Nak;
    n.consumes_seq = false;
    n.nak_first = first;
    n.nak_last = last;
    out.push_back(n);
  }
  moreNaks.clear();
}

void SegmentExtractor::extract(const DissectResult& r, std::vector<Segment>& out) const {
  out.clear();
  // A declared validity field must be present and true; undeclared means always valid.
  const Flags initial{c_.ack_valid < 0, c_.ts_echo_valid < 0};
  Building cur{{}, initial};
  Building shared = cur;  // values before the first segment marker apply to all segments
  bool inSegment = c_.segment < 0;
  bool any = false;  // the segment being built has a value
  NakList moreNaks;
  for (const FieldValue& v : r.values) {
    if (v.field < 0 || static_cast<size_t>(v.field) >= slot_.size()) continue;
    const Slot slot = slot_[v.field];
    const uint8_t extra = extra_[v.field];
    if (slot == None && extra == 0) continue;
    if (slot == SegStart || (c_.segment >= 0 && v.field == c_.segment)) {
      if (!inSegment)
        shared = cur;
      else if (any)
        emit(cur, moreNaks, out);
      inSegment = true;
      cur = shared;
      any = true;
      if (slot == SegStart) continue;
    }
    set(slot, v.u, cur, moreNaks);
    if (extra) setExtra(extra, static_cast<uint32_t>(v.u), cur.seg);
    if (inSegment) any = true;
  }
  if (inSegment && any) emit(cur, moreNaks, out);
}

}  // namespace rudp
