// Where a capture's database goes when the user does not say.
#pragma once
#include <string>

namespace rudp {

// "<capture>.rudpscope.sqlite" beside the capture when that folder is
// writable, else under $XDG_CACHE_HOME/rudpscope (or ~/.cache/rudpscope),
// named after the capture plus a hash of its absolute path.
std::string defaultDatabasePath(const std::string& capturePath);

}  // namespace rudp
