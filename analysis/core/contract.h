// The analysis contract: which dissector fields carry which meaning.
//
// A dissector declares it in a Lua block comment that Wireshark ignores:
//
//   --[==[ rudpscope.contract
//   return { version = 1, proto = "grudp", conn_id = "grudp.conn_id", ... }
//   ]==]
//
// The host evaluates the block (a Lua chunk returning a table) in an empty
// environment and resolves every field name to a field id. See
// dissectors/README.md for the full description.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rudp {

enum class SegmentRole : uint8_t { Other, Data, Ack, Connect, Accept, Disconnect, Ping, Pong };
enum class Reliability : uint8_t { FromField, Reliable, Unreliable, Unsequenced };
enum class AckStyle : uint8_t { None, HighestBitmap, Cumulative, PerSegment };

// Delivery classes of a two-level protocol's messages (RakNet's reliability).
enum class MessageClass : uint8_t {
  Unreliable,
  UnreliableSequenced,
  Reliable,
  ReliableOrdered,
  ReliableSequenced,
};
const char* toString(MessageClass c);
inline bool isReliable(MessageClass c) {
  return c == MessageClass::Reliable || c == MessageClass::ReliableOrdered ||
         c == MessageClass::ReliableSequenced;
}

// Version 2: packets numbered once, acknowledged by ranges (and NAKs), never
// resent; the messages they carry resent under new packet numbers (RakNet,
// and the shape of QUIC, UDT, GameNetworkingSockets). Field ids as below.
struct TwoLevelContract {
  int number = -1;  // the packet's number (one per datagram)
  int number_bits = 24;
  int ack_first = -1;    // an ack record's first number (every occurrence starts a record)
  int ack_last = -1;     // its last number; a record without one acks one number
  int nak = -1;          // bool: the datagram's records name packets missing, not arrived
  int msg_segment = -1;  // every occurrence starts a message
  int msg_id = -1;       // the number that identifies a message's copies (reliable messages)
  int msg_id_bits = 24;
  int msg_class = -1;  // selects a MessageClass in `classes`
  std::map<uint64_t, MessageClass> classes;
  int order_index = -1, order_channel = -1;
  int order_bits = 24;
  int split_id = -1, split_index = -1, split_count = -1;
  int msg_length = -1;
  bool msg_length_in_bits = false;  // RakNet counts a message's length in bits
};

struct KindRole {
  SegmentRole role = SegmentRole::Other;
  bool consumes_seq = true;  // false: the segment's seq is not a new number (GRUDP pure ACK)
  Reliability reliability = Reliability::FromField;
};

struct Contract {
  int version = 1;       // 2: the two-level model (`two_level`); the fields below are version 1's
  std::string proto;     // dissector filter name, e.g. "grudp"
  int proto_index = -1;  // index in Host::protocols()

  // Field ids (Host::fields() index); -1 = not declared.
  int segment = -1;  // every occurrence starts a new segment; -1 = one segment per datagram
  int conn_id = -1;
  int kind = -1;  // field whose value selects a KindRole in `kinds`
  std::map<uint64_t, KindRole> kinds;
  // The role of a segment that carries no kind field (UDT: only control
  // packets have a type); unset: the segment has no role from `kind`.
  std::optional<KindRole> kind_absent;
  int seq = -1;
  int seq_bits = 32;
  int seq_space = -1;  // field whose value selects an independent seq space (ENet: channel); -1 = one
  bool seq_reliable_only = false;  // only reliable segments take a new seq (ENet's reliable numbers)
  // Numbering of segments that are never retransmitted (ENet unreliable /
  // unsequenced): a gap in it at the receiver is a loss. See dissectors/README.md.
  struct Numbering {
    int field = -1;  // the number
    int bits = 32;
    int group = -1;  // optional: the number restarts at 1 whenever this field's value changes
    int space = -1;  // optional: independent numberings per value of this field
  };
  std::vector<Numbering> unreliable_seq;
  int reliable = -1;     // bool field
  int unsequenced = -1;  // bool field
  AckStyle ack_style = AckStyle::None;
  int ack = -1;         // highest seen / cumulative / acked sn
  int ack_bitmap = -1;  // HighestBitmap: bit i = (ack - 1 - i) received
  int ack_valid = -1;   // bool field; -1 = ack valid whenever present
  int una = -1;         // optional cumulative ack beside a per-segment one (KCP)
  // A loss list (UDT's NAK): each `nak_first` starts an entry naming a seq
  // the receiver misses; `nak_last`, when it follows, makes it a range.
  int nak_first = -1, nak_last = -1;
  int ts = -1;
  int ts_echo = -1;
  int ts_echo_valid = -1;  // bool field; -1 = valid whenever present
  double ts_unit_ms = 1.0;
  int ts_bits = 32;
  int channel = -1;
  int length = -1;  // payload length of the segment
  int window = -1;
  // How the sender retransmits (`retx` table): its minimum RTO for the timer
  // estimate (-1: AnalyzerConfig's), whether one seq may be fast-retransmitted
  // more than once (KCP resets fastack), and whether a fast copy may leave on
  // the sender's next flush instead of right after the ack (KCP's interval),
  // and how many acks showing a gap make a fast copy by themselves (KCP's
  // `resend`): with fewer, the copy is fast only when no new data leaves
  // beside it (kcp-go's early retransmit); 0: any one ack does.
  double rto_min_ms = -1;
  bool fast_repeat = false;
  bool fast_deferred = false;
  int fast_acks = 0;

  TwoLevelContract two_level;
  bool twoLevel() const { return version == 2; }
};

}  // namespace rudp
