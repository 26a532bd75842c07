// Prints the fields of one frame the way `tshark -T fields -e ...` does.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "filter/filter_fields.h"
#include "lua/dissector_files.h"
#include "lua/host.h"

namespace rudp {

class FieldPrinter {
 public:
  // Throws Error naming the first field that is neither built in nor
  // registered by a loaded dissector. Without `inCaptureOrder` (frames
  // printed one by one, out of order) the fields that depend on the frames
  // before (frame.time_delta, frame.time_delta_displayed) are refused too.
  FieldPrinter(const LuaHost& host, const std::vector<std::string>& fields, bool inCaptureOrder = true);

  // Appends one tab-separated line (with '\n') for the frame to `out`; its
  // times (first, previous, last shown) give the frame.time_* fields.
  void line(const FilterFrame& frame, std::string& out) const;

  // The frame/ip/udp/tcp fields this printer knows without a dissector.
  static const std::vector<std::string>& builtinFields();
  // Whether it prints fields that need the frames before in their
  // conversation (tcp.analysis.*, tcp.seq, tcp.stream, udp.stream, ...):
  // then its frames come from a FilterFrameSequence following conversations.
  bool needsConversations() const;

 private:
  struct Column {
    int builtin = -1;       // index into builtinFields(), or
    int tcp_note = -1;      // index into tcpNoteFieldNames(), or
    int stream_field = -1;  // into streamFieldNames(), or
    int quic_field = -1;    // into quic::fieldNames(), or
    int lua_field = -1;     // LuaHost field id
  };
  void builtin(int which, const FilterFrame& frame, std::string& out) const;
  static void tcpNote(int which, const FilterFrame& frame, std::string& out);
  void streamField(int which, const FilterFrame& frame, std::string& out) const;
  static void quicField(int which, const FilterFrame& frame, std::string& out);
  const LuaHost& host_;
  std::vector<Column> columns_;
};

// Every frame of `capture`, dissected with `dissectors` as tshark dissects
// it, printed by a FieldPrinter of `fields`: `line` gets each frame's line.
// Returns what reading left to say (captureWarnings); a damaged capture
// throws DamagedCaptureError after the frames before the damage, as tshark
// prints them and then fails, unless `keepDamaged`. A `displayFilter`
// (tshark's -Y) leaves out the frames it does not pass; a bad one throws
// FilterError before any frame.
std::vector<std::string> forEachFieldLine(const std::string& capture, const DissectorOptions& dissectors,
                                          const std::vector<std::string>& fields,
                                          const std::function<void(const std::string&)>& line,
                                          bool keepDamaged = false, const std::string& displayFilter = {});

}  // namespace rudp
