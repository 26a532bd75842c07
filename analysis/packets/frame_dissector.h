// One stored frame read back from its capture and dissected again, with the
// columns of Wireshark's packet list and the items of its details pane:
// what the bulk ingest leaves out (it stores the contract's fields only).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "filter/display_filter.h"
#include "lua/dissector_files.h"
#include "packets/conversation_replay.h"
#include "packets/frame_time.h"
#include "store/records.h"

namespace rudp {

class Decoder;

// One line of the details: a layer's summary or a dissector's item.
struct FrameItem {
  static constexpr uint32_t kNoBytes = UINT32_MAX;
  std::string label;
  uint16_t depth = 0;                      // 0: a layer
  uint32_t offset = kNoBytes, length = 0;  // the bytes it covers, from the frame's start
  std::string field;                       // the filter name ("grudp.seq"); empty for a summary
  std::string value;                       // the value as tshark -T fields prints it
};

struct DissectedFrame {
  uint64_t frame = 0;
  std::string lua_protocol;    // the filter name of the Lua protocol that took the payload; empty: none
  std::vector<uint8_t> bytes;  // as captured
  std::string source, destination, protocol, info;
  std::vector<std::string> field_columns;  // setFieldColumns' fields, as tshark -T fields -e prints them
  std::vector<FrameItem> items;            // filled when asked for
};

class FrameDissector {
 public:
  // Opens the capture and loads the dissectors as the analysis did. Throws
  // CaptureError or DissectorError with one line.
  FrameDissector(const std::string& capture, const DissectorOptions& dissectors, int64_t firstTsNs);
  ~FrameDissector();
  FrameDissector(const FrameDissector&) = delete;
  FrameDissector& operator=(const FrameDissector&) = delete;

  // `stored` is the frame's row in the database. Throws CaptureError when the
  // file no longer holds that frame where the row says. `times`: the frame's
  // place in the list (the Frame layer's deltas); without them the deltas
  // are from the frame dissected before. `facts`: its conversation items
  // (ConversationReplay); without them the details leave out TCP's stream,
  // times and SEQ/ACK analysis and UDP's stream and times.
  DissectedFrame dissect(const PacketRecord& stored, bool withItems, const FrameTimes* times = nullptr,
                         const ConversationFacts* facts = nullptr);
  // A record read by the caller (rudpscope-cli decode -V reads in order).
  DissectedFrame dissect(const RawPacket& raw, bool withItems);

  // A display filter over the loaded dissectors' fields (throws FilterError),
  // and whether the frame dissect() gave last passes it (then it is shown).
  // frame.time_delta is measured from the frame dissected before and
  // frame.time_delta_displayed from the last shown, so frames must come in order.
  DisplayFilter compileFilter(std::string_view text) const;
  bool lastPasses(const DisplayFilter& filter);

  // TCP's Info shows Win as Wireshark does: the header's window shifted by
  // the WS its sender announced, when both SYN and SYN-ACK carry one (not on
  // a SYN). `head(conn)` gives a connection's first rows in the database,
  // where its handshake is when the capture has it. Without it, or without
  // a handshake, Win is the header's value.
  using ConnectionHead = std::function<std::vector<PacketRecord>(int64_t conn)>;
  void setConnectionHead(ConnectionHead head);
  // Wireshark's relative sequence numbers (its preference
  // tcp.relative_sequence_numbers, on unless -o sets it off) for stored
  // rows: `bases(conn)` gives where a connection's start (the database's
  // tcp_seq_bases). Without it stored rows show raw numbers; frames read in
  // order work theirs out.
  using ConnectionSeqBases = std::function<std::vector<TcpSeqBaseChange>(int64_t conn)>;
  void setConnectionSeqBases(ConnectionSeqBases bases);

  // Wireshark's custom columns ("Apply as Column"): the values of these
  // fields are given with every frame. Throws Error naming an unknown field.
  void setFieldColumns(const std::vector<std::string>& fields);

  int timestampDigits() const;
  // The decoder the frames went through (the link types it could not read).
  const Decoder& decoder() const;
  // Whether frames are reached directly (else by reading the file forward).
  bool seeks() const;

 private:
  // `storedNotes`: the TCP notes the analysis stored; null: worked out from
  // the frames dissected before (read in order), as the conversation items
  // are, which `facts` gives a stored row.
  DissectedFrame dissectFrame(const RawPacket& raw, bool withItems, int windowShift,
                              const TcpNotes* storedNotes, const FrameTimes* times,
                              const ConversationFacts* facts);

  struct Impl;
  std::unique_ptr<Impl> d;
};

}  // namespace rudp
