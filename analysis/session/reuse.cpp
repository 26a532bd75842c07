#include "session/reuse.h"

#include <cmath>
#include <filesystem>

#include "core/error.h"
#include "core/file_hash.h"
#include "store/store_reader.h"

namespace rudp {

namespace {
// The database keeps settings as "%g" text: equal within that precision.
bool sameSetting(double a, double b) { return std::abs(a - b) <= 1e-6 * std::max(1.0, std::abs(b)); }

bool sameAnalysis(const AnalysisSettings& stored, const IngestOptions& options) {
  const ana::AnalyzerConfig& cfg = options.analysis;
  if (stored.analysed != options.analyze_connections || stored.display_filter != options.display_filter ||
      !sameSetting(stored.stall_ms, cfg.stall_ms) || stored.rtt_limits_ms.size() != cfg.rtt_limits_ms.size())
    return false;
  for (size_t i = 0; i < cfg.rtt_limits_ms.size(); ++i)
    if (!sameSetting(stored.rtt_limits_ms[i], cfg.rtt_limits_ms[i])) return false;
  return true;
}
}  // namespace

std::string whyNotReusable(const std::string& capturePath, const std::string& dbPath,
                           const DissectorOptions& dissectors, const IngestOptions& options) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(dbPath, ec)) return "no database yet";
  try {
    StoreReader reader(dbPath);
    const CaptureInfo info = reader.capture();
    // The size is free to compare and rules out most changed files before
    // the hash reads the whole capture.
    const auto size = std::filesystem::file_size(capturePath, ec);
    if (ec || info.size != size) return "the capture changed";
    const AnalysisSettings stored = reader.settings();
    if (!sameAnalysis(stored, options)) return "other analysis settings";
    if (stored.dissectors != dissectorFingerprint(dissectors)) return "other dissectors or preferences";
    if (info.hash_algorithm != kFileHashAlgorithm || info.hash != hashFile(capturePath))
      return "the capture changed";
  } catch (const Error& e) { return e.what(); }
  return {};
}

}  // namespace rudp
