// Several one-line messages kept in one string (CaptureInfo::warning holds
// one line per thing reading a capture left to say).
#pragma once
#include <string>
#include <vector>

namespace rudp {

inline std::string joinLines(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& l : lines) text += (text.empty() ? "" : "\n") + l;
  return text;
}

inline std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  size_t from = 0;
  while (from < text.size()) {
    const size_t nl = text.find('\n', from);
    const size_t to = nl == std::string::npos ? text.size() : nl;
    if (to > from) lines.push_back(text.substr(from, to - from));
    from = to + 1;
  }
  return lines;
}

}  // namespace rudp
