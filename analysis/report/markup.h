// Text for HTML and SVG: escaping and compact numbers for attributes.
#pragma once
#include <string>
#include <string_view>

namespace rudp::report {

// Escapes & < > " ' so the text is safe in element content and in quoted
// attribute values of HTML and XML alike. Bytes that are not valid UTF-8 and
// control characters XML forbids become U+FFFD, so a capture's odd bytes
// cannot break the page.
std::string escapeXml(std::string_view text);

// A coordinate with at most one decimal, no trailing ".0" ("12", "12.5").
std::string coord(double v);

}  // namespace rudp::report
