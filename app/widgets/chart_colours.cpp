#include "widgets/chart_colours.h"

namespace rudp::gui {

bool ChartColours::isDark(const QPalette& p) {
  return p.color(QPalette::WindowText).lightness() > p.color(QPalette::Window).lightness();
}

namespace {
QColor withAlpha(QColor c, int alpha) {
  c.setAlpha(alpha);
  return c;
}
// Accent colours: the first of each pair for light backgrounds, the second
// for dark ones.
QColor pick(bool dark, const char* light, const char* darkVariant) {
  return QColor(QLatin1String(dark ? darkVariant : light));
}
}  // namespace

ChartColours ChartColours::fromPalette(const QPalette& p) {
  ChartColours c;
  c.dark = isDark(p);
  const bool d = c.dark;
  c.background = p.color(QPalette::Window);
  c.plot = p.color(QPalette::Base);
  c.text = p.color(QPalette::Text);
  c.dimText = withAlpha(c.text, 160);
  c.axis = withAlpha(c.text, 140);
  c.grid = withAlpha(c.text, d ? 40 : 28);

  c.rttSample = pick(d, "#1f77b4", "#6cb6ff");
  c.srtt = pick(d, "#2ca02c", "#7ee787");
  c.rto = pick(d, "#8c564b", "#d2a8a0");
  c.limit = pick(d, "#9467bd", "#c9a2ff");

  c.retxTimeout = pick(d, "#d62728", "#ff6b6b");
  c.retxFast = pick(d, "#ff7f0e", "#ffa657");
  c.retxSpurious = pick(d, "#1f5fd6", "#79c0ff");
  c.loss = c.text;

  c.stallBand = withAlpha(pick(d, "#d62728", "#ff6b6b"), d ? 60 : 45);
  c.recoveryBand = withAlpha(pick(d, "#e6b800", "#d29922"), d ? 50 : 55);
  c.rateChangeBand = withAlpha(pick(d, "#8e6cc0", "#b392f0"), d ? 55 : 50);  // the Summary's "Rate change"

  c.seqSent = c.text;  // tcptrace: data white on its black background
  c.seqRetransmitted = c.retxTimeout;
  c.seqAcked = pick(d, "#1a9e1a", "#3fb950");
  c.packetRate = pick(d, "#17becf", "#56d4dd");
  c.byteRate = pick(d, "#9467bd", "#c9a2ff");

  c.crosshair = withAlpha(c.text, 150);
  c.cursor = pick(d, "#e377c2", "#ff9bd5");
  c.rubberBand = withAlpha(p.color(QPalette::Highlight), 60);
  // Tableau 10's order for the first seven, then its last three: the lab's
  // eight stacks get eight colours (a repeated colour reads as one stack).
  c.cycle = {c.rttSample,
             c.retxFast,
             c.srtt,
             c.retxTimeout,
             c.limit,
             c.rto,
             c.packetRate,
             pick(d, "#e377c2", "#ff9bd5"),
             pick(d, "#7f7f7f", "#b1bac4"),
             pick(d, "#bcbd22", "#d6d65c")};
  return c;
}

}  // namespace rudp::gui
