#include "jobs/database_reuse.h"

#include <exception>
#include <filesystem>

#include "analysis_preferences.h"
#include "core/file_hash.h"
#include "store/store_reader.h"

namespace rudp::gui {

bool databaseMatchesCapture(const std::string& capturePath, const std::string& dbPath,
                            const AnalysisPreferences& prefs) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(dbPath, ec)) return false;
  try {
    rudp::StoreReader reader(dbPath);
    const rudp::CaptureInfo info = reader.capture();
    // The size is free to compare and rules out most changed files before
    // the hash reads the whole capture.
    if (info.size != std::filesystem::file_size(capturePath)) return false;
    if (!prefs.matches(reader.settings())) return false;
    return info.hash_algorithm == rudp::kFileHashAlgorithm && info.hash == rudp::hashFile(capturePath);
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace rudp::gui
