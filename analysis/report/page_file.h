// Writing a page (report, comparison) to its file through a temporary file
// beside it, so a failed run never leaves half a page under the final name.
#pragma once
#include <functional>
#include <iosfwd>
#include <string>

namespace rudp::report {

// Calls `write` on a stream into PATH.partial, then renames it over `path`.
// Throws rudp::Error "cannot write 'PATH': why"; what `write` throws passes
// through. Either way no partial file is left behind.
void writePageFile(const std::string& path, const std::function<void(std::ostream&)>& write);

}  // namespace rudp::report
