// Files written aside and renamed over their final name only when complete,
// so nobody ever reads half a file under the final name.
#pragma once
#include <cstdio>
#include <string>

namespace rudp {

// Closes `file` (flushing it) and renames `partial` over `path`. On failure
// removes `partial` and returns the reason as "cannot write 'FILE': why";
// returns an empty string on success. `file` is closed either way.
std::string commitPartialFile(std::FILE* file, const std::string& partial, const std::string& path);

}  // namespace rudp
