#include <catch2/catch.hpp>

#include "flow/segment_extractor.h"

using namespace rudp;

namespace {
// Field ids of a made-up protocol: 0 conn, 1 kind, 2 seq, 3 reliable, 4 ack, 5 bits,
// 6 ack valid, 7 ts, 8 echo, 9 echo valid, 10 channel, 11 length, 12 segment marker, 13 other.
Contract makeContract(bool segmented) {
  Contract c;
  c.proto = "test";
  c.conn_id = 0;
  c.kind = 1;
  c.seq = 2;
  c.reliable = 3;
  c.ack = 4;
  c.ack_bitmap = 5;
  c.ack_valid = 6;
  c.ts = 7;
  c.ts_echo = 8;
  c.ts_echo_valid = 9;
  c.channel = 10;
  c.length = 11;
  c.ack_style = AckStyle::HighestBitmap;
  c.kinds[0] = KindRole{SegmentRole::Data, true, Reliability::FromField};
  c.kinds[1] = KindRole{SegmentRole::Ack, false, Reliability::FromField};
  c.kinds[2] = KindRole{SegmentRole::Connect, true, Reliability::Reliable};
  if (segmented) c.segment = 12;
  return c;
}
void add(DissectResult& r, int field, uint64_t v) { r.values.push_back(FieldValue{field, v, 0, 0}); }
}  // namespace

TEST_CASE("one segment per datagram takes every contract field") {
  Contract c = makeContract(false);
  SegmentExtractor ex(c, 14);
  DissectResult r;
  add(r, 0, 0xdeadbeef);
  add(r, 1, 0);
  add(r, 2, 1201);
  add(r, 3, 1);
  add(r, 13, 99);
  add(r, 4, 877);
  add(r, 5, 0x5);
  add(r, 6, 1);
  add(r, 7, 5000);
  add(r, 8, 4900);
  add(r, 9, 0);
  add(r, 10, 3);
  add(r, 11, 40);
  std::vector<Segment> out;
  ex.extract(r, out);
  REQUIRE(out.size() == 1);
  const Segment& s = out[0];
  CHECK(s.conn_id == 0xdeadbeef);
  CHECK(s.role == SegmentRole::Data);
  CHECK(s.seq == 1201);
  CHECK(s.reliability == Reliability::Reliable);
  CHECK(s.is(Segment::Ack));
  CHECK(s.ack == 877);
  CHECK(s.ack_bits == 0x5);
  CHECK(s.ts == 5000);
  CHECK_FALSE(s.is(Segment::Echo));  // echo-valid flag was 0
  CHECK(s.channel == 3);
  CHECK(s.length == 40);
}

TEST_CASE("a declared validity field that is absent or false hides the ack") {
  Contract c = makeContract(false);
  SegmentExtractor ex(c, 14);
  DissectResult r;
  add(r, 1, 0);
  add(r, 2, 7);
  add(r, 4, 3);
  std::vector<Segment> out;
  ex.extract(r, out);
  REQUIRE(out.size() == 1);
  CHECK_FALSE(out[0].is(Segment::Ack));
  CHECK(out[0].reliability == Reliability::Unreliable);
}

TEST_CASE("a pure ack does not consume a sequence number; kind roles fix reliability") {
  Contract c = makeContract(false);
  SegmentExtractor ex(c, 14);
  std::vector<Segment> out;
  DissectResult ack;
  add(ack, 1, 1);
  add(ack, 2, 55);
  add(ack, 4, 10);
  add(ack, 6, 1);
  ex.extract(ack, out);
  REQUIRE(out.size() == 1);
  CHECK(out[0].role == SegmentRole::Ack);
  CHECK_FALSE(out[0].is(Segment::Seq));
  CHECK(out[0].ack == 10);
  DissectResult conn;
  add(conn, 1, 2);
  add(conn, 2, 100);
  add(conn, 3, 0);
  ex.extract(conn, out);
  REQUIRE(out.size() == 1);
  CHECK(out[0].role == SegmentRole::Connect);
  CHECK(out[0].reliability == Reliability::Reliable);
}

TEST_CASE("a segment marker splits a datagram; fields before the first marker are shared") {
  Contract c = makeContract(true);
  SegmentExtractor ex(c, 14);
  DissectResult r;
  add(r, 0, 42);   // datagram-level connection id
  add(r, 7, 900);  // datagram-level timestamp
  add(r, 12, 0);
  add(r, 1, 0);
  add(r, 2, 10);
  add(r, 3, 1);
  add(r, 11, 100);
  add(r, 12, 0);
  add(r, 1, 1);
  add(r, 4, 77);
  add(r, 6, 1);
  add(r, 12, 0);
  add(r, 1, 0);
  add(r, 2, 11);
  add(r, 7, 901);
  std::vector<Segment> out;
  ex.extract(r, out);
  REQUIRE(out.size() == 3);
  CHECK(out[0].conn_id == 42);
  CHECK(out[0].seq == 10);
  CHECK(out[0].reliability == Reliability::Reliable);
  CHECK(out[0].length == 100);
  CHECK(out[0].ts == 900);
  CHECK(out[1].role == SegmentRole::Ack);
  CHECK(out[1].ack == 77);
  CHECK(out[1].conn_id == 42);
  CHECK_FALSE(out[1].is(Segment::Length));  // not carried over from the previous segment
  CHECK(out[2].seq == 11);
  CHECK(out[2].ts == 901);
  CHECK(out[2].reliability == Reliability::Unreliable);
}

TEST_CASE("no contract field present yields no segment") {
  Contract c = makeContract(false);
  SegmentExtractor ex(c, 14);
  DissectResult r;
  add(r, 13, 5);
  std::vector<Segment> out;
  ex.extract(r, out);
  CHECK(out.empty());
}

TEST_CASE("seq.space, reliable_only and unreliable numberings: one field may carry several meanings") {
  // ENet-like: 10 channel (also the seq space and the numbering's space),
  // 2 reliable seq (also the numbering's group), 14 unreliable seq, 15 unsequenced group.
  Contract c = makeContract(true);
  c.conn_id = -1;
  c.seq_space = 10;
  c.seq_reliable_only = true;
  c.unreliable_seq.push_back({14, 16, 2, 10});
  c.unreliable_seq.push_back({15, 16, -1, -1});
  SegmentExtractor ex(c, 16);
  DissectResult r;
  add(r, 12, 0x86);
  add(r, 1, 0);
  add(r, 3, 1);
  add(r, 10, 255);
  add(r, 2, 7);  // reliable on 0xFF
  add(r, 12, 0x07);
  add(r, 1, 0);
  add(r, 3, 0);
  add(r, 10, 1);
  add(r, 2, 3);
  add(r, 14, 9);  // unreliable
  add(r, 12, 0x49);
  add(r, 1, 0);
  add(r, 3, 0);
  add(r, 10, 2);
  add(r, 2, 0);
  add(r, 15, 41);  // unsequenced
  std::vector<Segment> out;
  ex.extract(r, out);
  REQUIRE(out.size() == 3);
  CHECK(out[0].is(Segment::Seq));
  CHECK(out[0].seq == 7);
  CHECK(out[0].is(Segment::Space));
  CHECK(out[0].space == 255);
  CHECK(out[0].channel == 255);
  using Part = Segment::Numbers::Part;
  CHECK(out[0].numbers[0].present == (1 << Part::Group | 1 << Part::Space));  // group and space, no number
  CHECK(out[0].numbers[1].present == 0);
  CHECK_FALSE(out[1].is(Segment::Seq));  // an unreliable segment's reliable seq is not a new number
  CHECK(out[1].space == 1);
  CHECK(out[1].numbers[0].present == (1 << Part::Number | 1 << Part::Group | 1 << Part::Space));
  CHECK(out[1].numbers[1].present == 0);
  CHECK(out[1].numbers[0].value[Part::Number] == 9);
  CHECK(out[1].numbers[0].value[Part::Group] == 3);
  CHECK(out[1].numbers[0].value[Part::Space] == 1);
  CHECK(out[2].numbers[1].has(Part::Number));
  CHECK(out[2].numbers[1].value[Part::Number] == 41);
  CHECK_FALSE(out[2].is(Segment::Seq));
}

TEST_CASE("kind.absent gives its role to a datagram without the kind field (UDT data)") {
  Contract c = makeContract(false);
  c.kind_absent = KindRole{SegmentRole::Data, true, Reliability::Reliable};
  SegmentExtractor ex(c, 14);
  std::vector<Segment> out;
  DissectResult data;
  add(data, 2, 77);
  ex.extract(data, out);
  REQUIRE(out.size() == 1);
  CHECK(out[0].role == SegmentRole::Data);
  CHECK(out[0].reliability == Reliability::Reliable);
  CHECK(out[0].is(Segment::Seq));
  DissectResult ack;  // a kind present keeps its own role
  add(ack, 1, 1);
  add(ack, 4, 78);
  ex.extract(ack, out);
  REQUIRE(out.size() == 1);
  CHECK(out[0].role == SegmentRole::Ack);
}

TEST_CASE("a loss list's entries: the first in the segment, each further one a segment of its own") {
  Contract c = makeContract(false);
  c.nak_first = 12;
  c.nak_last = 13;
  SegmentExtractor ex(c, 14);
  DissectResult r;
  add(r, 0, 9);   // conn id: copied to every entry's segment
  add(r, 1, 1);   // kind: ack
  add(r, 12, 5);  // 5..8
  add(r, 13, 8);
  add(r, 12, 11);  // 11 alone
  add(r, 12, 20);  // 20..21
  add(r, 13, 21);
  std::vector<Segment> out;
  ex.extract(r, out);
  REQUIRE(out.size() == 3);
  const std::pair<uint32_t, uint32_t> want[] = {{5, 8}, {11, 11}, {20, 21}};
  for (size_t i = 0; i < 3; ++i) {
    INFO(i);
    CHECK(out[i].is(Segment::Nak));
    CHECK(out[i].nak_first == want[i].first);
    CHECK(out[i].nak_last == want[i].second);
    CHECK(out[i].conn_id == 9);
    CHECK_FALSE(out[i].is(Segment::Seq));
  }
}
