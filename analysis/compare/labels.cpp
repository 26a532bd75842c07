#include "compare/labels.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace rudp::cmp {
namespace {

// What CaptureReader::open reads, by name: a capture format's extension,
// possibly followed by a compression's.
constexpr std::string_view kCaptureExtensions[] = {".pcap", ".pcapng", ".cap", ".snoop"};
constexpr std::string_view kCompressionExtensions[] = {".gz", ".zst"};

template <size_t N>
bool oneOf(std::string_view ext, const std::string_view (&list)[N]) {
  return std::find(std::begin(list), std::end(list), ext) != std::end(list);
}

std::string_view extensionOf(std::string_view name) {
  const auto dot = name.rfind('.');
  return dot == std::string_view::npos || dot == 0 ? std::string_view() : name.substr(dot);
}

// "run.pcap.gz" -> "run.pcap"; "run.pcap" stays.
std::string_view withoutCompression(std::string_view name) {
  const std::string_view ext = extensionOf(name);
  return oneOf(ext, kCompressionExtensions) ? name.substr(0, name.size() - ext.size()) : name;
}

bool isCaptureFile(const fs::path& p) {
  const std::string name = p.filename().string();
  return oneOf(extensionOf(withoutCompression(name)), kCaptureExtensions);
}

// "game.pcapng" -> "game"; "run.pcap.gz" -> "run".
std::string stem(std::string_view path) {
  const std::string file = fs::path{std::string(path)}.filename().string();
  std::string_view name = withoutCompression(file);
  if (const std::string_view ext = extensionOf(name); oneOf(ext, kCaptureExtensions))
    name.remove_suffix(ext.size());
  return std::string(name);
}

// "loss5" -> {loss, 5}; "delay12.5" -> {delay, 12.5}; anything else: nothing.
bool splitKeyNumber(const std::string& token, std::string& key, std::string& value) {
  size_t i = 0;
  while (i < token.size() && std::isalpha(static_cast<unsigned char>(token[i]))) ++i;
  if (i == 0 || i == token.size()) return false;
  const std::string rest = token.substr(i);
  if (!std::isdigit(static_cast<unsigned char>(rest[0]))) return false;
  if (rest.find_first_not_of("0123456789.") != std::string::npos) return false;
  if (std::count(rest.begin(), rest.end(), '.') > 1) return false;
  key = token.substr(0, i);
  value = rest;
  return true;
}

// "loss5" before "loss10": runs of digits compare as numbers.
bool naturalLess(const std::string& a, const std::string& b) {
  size_t i = 0, j = 0;
  auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
  while (i < a.size() && j < b.size()) {
    if (digit(a[i]) && digit(b[j])) {
      const size_t i0 = i, j0 = j;
      while (i < a.size() && digit(a[i])) ++i;
      while (j < b.size() && digit(b[j])) ++j;
      const std::string x = a.substr(i0, i - i0), y = b.substr(j0, j - j0);
      const auto trim = [](const std::string& s) {
        return s.substr(std::min(s.find_first_not_of('0'), s.size()));
      };
      const std::string tx = trim(x), ty = trim(y);
      if (tx.size() != ty.size()) return tx.size() < ty.size();
      if (tx != ty) return tx < ty;
      continue;
    }
    if (a[i] != b[j]) return a[i] < b[j];
    ++i, ++j;
  }
  return a.size() - i < b.size() - j;
}

}  // namespace

Labels labelsFromFileName(std::string_view path) {
  Labels labels;
  std::istringstream tokens(stem(path));
  std::string token;
  bool haveStack = false;
  while (std::getline(tokens, token, '_')) {
    if (token.empty()) continue;
    std::string key, value;
    if (token.find('=') != std::string::npos) {
      key = token.substr(0, token.find('='));
      value = token.substr(token.find('=') + 1);
      if (!key.empty()) labels[key] = value;
    } else if (splitKeyNumber(token, key, value)) {
      labels[key] = value;
    } else if (!haveStack) {
      labels["stack"] = token;
      haveStack = true;
    }
  }
  return labels;
}

std::pair<std::string, std::string> parseLabel(std::string_view keyValue) {
  const auto eq = keyValue.find('=');
  if (eq == std::string_view::npos || eq == 0 || eq + 1 == keyValue.size())
    throw CompareError("a label is KEY=VALUE, not '" + std::string(keyValue) + "'");
  return {std::string(keyValue.substr(0, eq)), std::string(keyValue.substr(eq + 1))};
}

Labels sidecarLabels(const std::string& capturePath) {
  const std::string sidecar = capturePath + ".labels";
  std::ifstream in(sidecar);
  if (!in) return {};
  Labels labels;
  std::string line;
  while (std::getline(in, line)) {
    line = line.substr(0, line.find('#'));
    std::istringstream words(line);
    std::string word;
    while (words >> word) {
      try {
        auto [key, value] = parseLabel(word);
        labels[key] = value;
      } catch (const CompareError& e) { throw CompareError(sidecar + ": " + e.what()); }
    }
  }
  return labels;
}

Labels captureLabels(const std::string& capturePath, const Labels& overrides) {
  Labels labels = labelsFromFileName(capturePath);
  for (const auto& [k, v] : sidecarLabels(capturePath)) labels[k] = v;
  for (const auto& [k, v] : overrides) labels[k] = v;
  return labels;
}

std::string labelText(const Labels& labels) {
  std::string out;
  for (const auto& [k, v] : labels) out += (out.empty() ? "" : " ") + k + "=" + v;
  return out;
}

std::vector<std::string> expandCaptureSet(const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (const auto& path : paths) {
    std::error_code ec;
    if (!fs::exists(path, ec)) throw CompareError("no such file or folder: " + path);
    if (!fs::is_directory(path, ec)) {
      out.push_back(path);
      continue;
    }
    std::vector<std::string> found;
    for (const auto& entry : fs::directory_iterator(path, ec))
      if (entry.is_regular_file() && isCaptureFile(entry.path())) found.push_back(entry.path().string());
    if (ec) throw CompareError("cannot list " + path + ": " + ec.message());
    if (found.empty())
      throw CompareError(path +
                         " holds no capture (*.pcap, *.pcapng, *.cap, *.snoop, each also .gz or .zst)");
    std::sort(found.begin(), found.end(), naturalLess);
    out.insert(out.end(), found.begin(), found.end());
  }
  return out;
}

}  // namespace rudp::cmp
