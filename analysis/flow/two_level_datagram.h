// One datagram of a two-level protocol (contract version 2) in the meaning
// its contract gives it: the packet number, the ack or NAK records, and the
// messages it carries.
#pragma once
#include <cstdint>
#include <vector>

#include "core/contract.h"
#include "flow/segment.h"
#include "lua/host.h"

namespace rudp {

struct AckRecord {
  uint32_t first = 0, last = 0;  // a record of one number: first == last
};

struct Message {
  bool has_id = false;  // reliable messages carry the number their copies share
  uint32_t id = 0;
  MessageClass cls = MessageClass::Unreliable;
  bool has_order = false;
  uint32_t order_index = 0, channel = 0;
  bool split = false;
  uint32_t split_id = 0, split_index = 0, split_count = 0;
  uint32_t length = 0;
};

struct TwoLevelDatagram {
  bool has_number = false;
  uint32_t number = 0;
  // The dissector gave this datagram two packet numbers: it is counted but
  // not analysed (a contract field read once per datagram occurred twice).
  bool repeated_number = false;
  bool nak = false;  // the records name packets that did not arrive
  std::vector<AckRecord> acks;
  std::vector<Message> messages;

  void clear() {
    has_number = repeated_number = nak = false;
    number = 0;
    acks.clear();
    messages.clear();
  }
};

class TwoLevelExtractor {
 public:
  // `fieldCount` is LuaHost::fields().size().
  TwoLevelExtractor(const TwoLevelContract& contract, size_t fieldCount);

  // Fills `out` from `r`, and `segs` with one Segment per message (seq = its
  // id when it has one) for the packet rows and the connection table.
  void extract(const DissectResult& r, TwoLevelDatagram& out, std::vector<Segment>& segs) const;

 private:
  enum Slot : uint8_t {
    None,
    Number,
    AckFirst,
    AckLast,
    Nak,
    MsgStart,
    MsgId,
    MsgClass,
    OrderIndex,
    OrderChannel,
    SplitId,
    SplitIndex,
    SplitCount,
    MsgLength
  };
  void read(Slot slot, uint64_t value, TwoLevelDatagram& out) const;

  const TwoLevelContract& c_;
  std::vector<Slot> slot_;  // field id -> meaning
};

}  // namespace rudp
