// Problems of the capture as a whole: cut off, frames that could not be
// decoded, malformed datagrams, dissector errors.
#pragma once
#include <vector>

#include "report/problems.h"

namespace rudp::report {

std::vector<Problem> captureProblems(StoreReader& reader, const CaptureInfo& capture);

}  // namespace rudp::report
