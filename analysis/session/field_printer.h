// Prints the fields of one frame the way `tshark -T fields -e ...` does.
#pragma once
#include <string>
#include <vector>

#include "lua/host.h"

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

}  // namespace rudp
