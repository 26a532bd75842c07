// Wireshark's built-in dissectors that one of ours replaces, and the
// `disabled_protos` file of a personal configuration folder that turns them
// off in plain Wireshark and tshark.
//
// A dissector file names what it replaces in a comment line of its own:
//   -- rudpscope.replaces: raknet
// (Wireshark owns the name `raknet`, so ours is `raknet4`; while the
// built-in one is on, its heuristic claims the conversation first.)
#pragma once
#include <string>
#include <vector>

namespace rudp::wireshark {

// The protocol filter names of every "-- rudpscope.replaces: A[, B]" line
// of a Lua file's text, in order.
std::vector<std::string> replacedProtocols(const std::string& luaSource);

// `disabled_protos`: one protocol filter name per line (Wireshark 4.0 and
// later), other lines (comments, other profiles' names) kept as they are.
class DisabledProtocols {
 public:
  explicit DisabledProtocols(std::string configFolder);

  std::string path() const;
  // Throws Error when the file exists but cannot be read.
  bool contains(const std::string& name) const;
  // Appends the name (creating the folder and file); atomic. Throws Error.
  void add(const std::string& name) const;
  // Removes that name's lines, keeps every other; removes the file when
  // nothing is left. Throws Error.
  void remove(const std::string& name) const;

 private:
  std::vector<std::string> lines() const;
  std::string folder_;
};

}  // namespace rudp::wireshark
