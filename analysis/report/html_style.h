// The report page's style sheet, inlined into the page.
#pragma once

namespace rudp::report {

const char* reportStyleSheet();

}  // namespace rudp::report
