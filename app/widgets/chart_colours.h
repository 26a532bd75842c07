// Chart colours taken from the widget's QPalette. The palette is dark (as
// Wireshark decides on Qt 6.4, which has no colour-scheme hint) when the
// window text is lighter than the window; the accent colours then switch to
// lighter variants. Marks follow tcptrace's code: data in the text colour
// (white on dark), acks green, retransmissions red, duplicates blue.
#pragma once
#include <QColor>
#include <QPalette>
#include <vector>

namespace rudp::gui {

struct ChartColours {
  bool dark = false;
  QColor background, plot, text, dimText, axis, grid;
  QColor rttSample, srtt, rto, limit;
  QColor retxTimeout, retxFast, retxSpurious, loss;
  QColor stallBand, recoveryBand, rateChangeBand;
  QColor seqSent, seqRetransmitted, seqAcked;
  QColor packetRate, byteRate;
  QColor crosshair, cursor, rubberBand;
  std::vector<QColor> cycle;  // for overlaid series (CDF, histogram bars)

  static bool isDark(const QPalette& p);
  static ChartColours fromPalette(const QPalette& p);
};

}  // namespace rudp::gui
