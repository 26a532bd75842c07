// Whether a capture's existing database can be shown as it is, without
// analysing the capture again: it must be complete (StoreReader opens only a
// finished database), made from a file with the same content, and computed
// with the thresholds, dissectors and preferences the user has now
// (rudp::whyNotReusable, shared with rudpscope-cli report).
#pragma once
#include <string>

namespace rudp::gui {

struct AnalysisPreferences;

// Never throws: any doubt (no database, another schema, unreadable capture)
// means "analyse again".
bool databaseMatchesCapture(const std::string& capturePath, const std::string& dbPath,
                            const AnalysisPreferences& prefs);

}  // namespace rudp::gui
