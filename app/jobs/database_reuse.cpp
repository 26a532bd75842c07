#include "jobs/database_reuse.h"

#include "jobs/analysis_preferences.h"
#include "session/reuse.h"

namespace rudp::gui {

bool databaseMatchesCapture(const std::string& capturePath, const std::string& dbPath,
                            const AnalysisPreferences& prefs) {
  return rudp::whyNotReusable(capturePath, dbPath, prefs.dissectorOptions(), prefs.ingestOptions()).empty();
}

}  // namespace rudp::gui
