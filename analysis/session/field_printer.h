// Prints the fields of one frame the way `tshark -T fields -e ...` does.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "lua/host.h"
#include "session/dissectors.h"

namespace rudp {

class FieldPrinter {
 public:
  // Throws Error naming the first field that is neither built in nor
  // registered by a loaded dissector.
  FieldPrinter(const LuaHost& host, const std::vector<std::string>& fields);

  // Appends one tab-separated line (with '\n') for the frame to `out`.
  // `firstTs` is the first frame's time (frame.time_relative).
  void line(const DecodedPacket& p, const DissectResult& r, int64_t firstTs, std::string& out) const;

  // The frame/ip/udp/tcp fields this printer knows without a dissector.
  static const std::vector<std::string>& builtinFields();

 private:
  struct Column {
    int builtin = -1;    // index into builtinFields(), or
    int lua_field = -1;  // LuaHost field id
  };
  void builtin(int which, const DecodedPacket& p, int64_t firstTs, std::string& out) const;
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
