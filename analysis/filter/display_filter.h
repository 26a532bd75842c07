// A Wireshark display filter ("grudp.type == DATA && ip.addr == 10.0.0.0/8")
// compiled against the loaded dissectors' fields and tested on frames as
// tshark -Y tests them.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "filter/filter_fields.h"
#include "filter/filter_syntax.h"
#include "store/frame_condition.h"

namespace rudp {

class LuaHost;

class DisplayFilter {
 public:
  // Passes every frame.
  DisplayFilter();
  // Throws FilterError (message and position) when `text` is not a valid
  // filter over `host`'s fields and the built-in ones. `host` must outlive
  // the filter.
  DisplayFilter(std::string_view text, const LuaHost& host);
  ~DisplayFilter();
  DisplayFilter(DisplayFilter&&) noexcept;
  DisplayFilter& operator=(DisplayFilter&&) noexcept;

  bool matches(const FilterFrame& frame) const;
  // matches() for a capture read in order: a frame that passes is shown, and
  // the next frames' frame.time_delta_displayed counts from it.
  bool matchesShown(const FilterFrame& frame, FilterFrameSequence& sequence) const;
  bool passesAll() const;  // an empty filter
  // Whether the Lua dissectors must run for the answer (a Lua field or
  // protocol, or `data`, which is what no Lua protocol took).
  bool needsDissectors() const;
  // Whether it names fields that need the frames before in their
  // conversation: Wireshark's TCP analysis fields (tcp.analysis.*), data,
  // which they decide for TCP, tcp.seq and tcp.ack, relative numbers, and
  // the stream fields (tcp.stream, udp.stream, ...): then its frames must
  // come from a FilterFrameSequence that follows conversations.
  bool needsConversations() const;
  // The fields it names, each once, in order of appearance.
  const std::vector<std::string>& fieldNames() const;
  const std::string& text() const;
  // The filter as a condition on the columns the database keeps for every
  // frame (frame.number, frame.len, frame.cap_len, frame.time_relative,
  // frame.time_epoch); nullopt when it names any other field. `firstTsNs`:
  // the capture's first frame time, for frame.time_relative.
  std::optional<FrameCondition> storedCondition(int64_t firstTsNs) const;

  struct Node;

 private:
  std::string text_;
  std::unique_ptr<FilterFields> fields_;
  std::unique_ptr<Node> root_;
  std::vector<std::string> names_;
  bool needs_dissectors_ = false;
};

}  // namespace rudp
