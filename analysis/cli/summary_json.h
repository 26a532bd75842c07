// `analyze --json`: the capture and each connection as JSON, from the typed
// store records (the keys are the CLI's JSON contract; see README).
#pragma once
#include <nlohmann/json.hpp>

#include "store/records.h"

namespace rudp::cli {

nlohmann::json captureJson(const CaptureInfo& c);
nlohmann::json liveCaptureJson(const LiveCaptureRecord& x);
// `limits` names the share_above keys (AnalysisSettings::rtt_limits_ms).
nlohmann::json connectionJson(const ConnectionRecord& r, const std::vector<double>& limits);

}  // namespace rudp::cli
