#include "report/html_style.h"

namespace rudp::report {

// No '<' or '&' inside, so the page stays well-formed XML as well as HTML.
const char* reportStyleSheet() {
  return R"css(
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif;
       color: #222; background: #fff; margin: 24px auto; max-width: 1280px; padding: 0 16px; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 17px; margin: 28px 0 8px; border-bottom: 1px solid #ddd; padding-bottom: 3px; }
.sub { color: #555; margin: 0; }
code, .addr, .file { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12.5px; }
table { border-collapse: collapse; }
table.facts th { text-align: left; font-weight: 600; padding: 2px 16px 2px 0; vertical-align: top; color: #444; }
table.facts td { padding: 2px 0; }
table.connections { font-size: 12px; width: 100%; }
table.connections th, table.connections td { border: 1px solid #d6d6d6; padding: 2px 5px; }
table.connections thead th { background: #f1f3f5; font-weight: 600; }
table.connections tbody:nth-of-type(even) { background: #fafbfc; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.dir { text-align: center; white-space: nowrap; }
td.none { color: #888; font-style: italic; }
abbr { text-decoration: none; cursor: help; color: #777; }
ol.problems { padding-left: 0; list-style: none; counter-reset: p; }
ol.problems li { counter-increment: p; margin: 0 0 5px; padding: 3px 8px; border-left: 5px solid #ccc; }
ol.problems li::before { content: counter(p) "."; color: #777; display: inline-block; min-width: 2.4em; }
ol.problems li.severe { border-color: #c00000; background: #fff3f3; }
ol.problems li.major { border-color: #e07000; background: #fff8ef; }
ol.problems li.minor { border-color: #c9a100; }
.kind { display: inline-block; min-width: 9em; font-size: 11px; text-transform: uppercase;
        letter-spacing: 0.03em; color: #555; }
.where { color: #666; font-size: 12px; margin-left: 6px; white-space: nowrap; }
p.none { color: #2a7a2a; }
figure { margin: 16px 0 24px; }
figcaption { font-weight: 600; margin-bottom: 4px; }
svg.timeline { max-width: 100%; height: auto; display: block; }
footer { margin-top: 32px; color: #777; font-size: 12px; border-top: 1px solid #ddd; padding-top: 6px; }
a { color: #0b57d0; text-decoration: none; }
@media print {
  body { margin: 0; max-width: none; font-size: 11px; }
  h2 { break-after: avoid; }
  figure, ol.problems li, table.connections tbody { break-inside: avoid; }
  table.connections thead { display: table-header-group; }
  a { color: inherit; }
  ol.problems li.severe, ol.problems li.major { background: none; }
}
@page { margin: 12mm; }
)css";
}

}  // namespace rudp::report
