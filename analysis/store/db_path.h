// Where a capture's database goes when the user does not say.
#pragma once
#include <string>

namespace rudp {

// "<capture>.rudpscope.sqlite" beside the capture when that folder is
// writable and not under /usr (installed files, such as the sample), else
// under $XDG_CACHE_HOME/rudpscope (or ~/.cache/rudpscope), named after the
// capture plus a hash of its absolute path.
std::string defaultDatabasePath(const std::string& capturePath);
// The same choice with the folder's writability given (tests, and callers
// that already know).
std::string defaultDatabasePath(const std::string& capturePath, bool folderWritable);

}  // namespace rudp
