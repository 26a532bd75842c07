// The frames of a capture a display filter passes, found by reading the
// capture forward and dissecting each frame again (what a filter on fields
// the database does not keep needs). The Lua dissectors run only when the
// filter names a field they give.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/progress.h"
#include "filter/filter_syntax.h"
#include "lua/dissector_files.h"
#include "store/frame_condition.h"

namespace rudp {

class LuaHost;

// Checks display filters against the fields of a set of dissectors, as the
// user types them.
class DisplayFilterChecker {
 public:
  explicit DisplayFilterChecker(const DissectorOptions& dissectors);  // throws DissectorError
  ~DisplayFilterChecker();
  // nullopt when `text` is a valid filter (an empty one is).
  std::optional<FilterError> check(std::string_view text) const;
  // The filter as a query on stored columns (DisplayFilter::storedCondition);
  // nullopt when it needs the capture read again. Throws FilterError.
  std::optional<FrameCondition> storedCondition(std::string_view text, int64_t firstTsNs) const;
  // Every field and protocol name a filter can use, sorted (completion).
  std::vector<std::string> fieldNames() const;

 private:
  std::unique_ptr<LuaHost> host_;
};

struct FrameScanStep {
  std::vector<uint64_t> passed;  // frames passed since the last step, ascending
  uint64_t frames_read = 0;      // so far
  uint64_t bytes_read = 0, total_bytes = 0;
};

// Calls `step` every `framesPerStep` frames and once at the end (then with
// whatever passed last). Throws FilterError for a bad filter (before any
// frame), CaptureError, DissectorError, and Cancelled when `progress` says.
void scanFramesPassing(const std::string& capture, const DissectorOptions& dissectors,
                       const std::string& filter, const std::function<void(FrameScanStep&&)>& step,
                       const ProgressSink& progress = {}, uint64_t framesPerStep = 20000);

}  // namespace rudp
