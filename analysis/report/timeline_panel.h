// One direction of a connection's timeline: RTT samples with the SRTT and
// RTO lines and the limit lines, a strip of retransmission and loss marks
// above them, and the stalls shaded across both.
#pragma once
#include <string>
#include <vector>

#include "report/plot_scale.h"
#include "report/svg_writer.h"
#include "store/records.h"

namespace rudp {
class StoreReader;
}

namespace rudp::report {

// Colours and shapes, shared with the legend.
struct TimelineStyle {
  static constexpr const char* kSample = "#1f77b4";
  static constexpr const char* kSrtt = "#08306b";
  static constexpr const char* kRto = "#7f7f7f";
  static constexpr const char* kTimeout = "#d62728";
  static constexpr const char* kFast = "#ff7f0e";
  static constexpr const char* kSpurious = "#9467bd";
  static constexpr const char* kLoss = "#333333";
  static constexpr const char* kStall = "#f4a0a0";
  static constexpr MarkShape kTimeoutShape = MarkShape::TriangleDown;
  static constexpr MarkShape kFastShape = MarkShape::Diamond;
  static constexpr MarkShape kSpuriousShape = MarkShape::Square;
  static constexpr MarkShape kLossShape = MarkShape::Cross;
  static const char* limitColour(size_t index, size_t count);
};

struct PanelGeometry {
  double left = 0, width = 0;
  double top = 0;        // the header line
  double strip_top = 0;  // the marks strip
  double plot_top = 0, plot_height = 0;
  double bottom() const { return plot_top + plot_height; }
};

class TimelinePanel {
 public:
  TimelinePanel(StoreReader& reader, const ConnectionRecord& conn, Direction dir, int64_t captureStartNs,
                const std::vector<double>& rttLimitsMs);
  // Draws into `svg`; `x` maps seconds since the capture start to pixels and
  // `clipId` names a clip rectangle already defined around the plot area.
  void draw(SvgWriter& svg, const PlotScale& x, const PanelGeometry& g, const std::string& clipId);

 private:
  double seconds(int64_t ns) const;
  bool showsLimits() const;
  double yMaxMs() const;
  void drawStalls(SvgWriter& svg, const PlotScale& x, const PanelGeometry& g);
  void drawGridAndLimits(SvgWriter& svg, const PlotScale& y, const PanelGeometry& g);
  void drawRtt(SvgWriter& svg, const PlotScale& x, const PlotScale& y, const std::string& clipId);
  void drawRetransmissions(SvgWriter& svg, const PlotScale& x, const PanelGeometry& g);
  void drawLosses(SvgWriter& svg, const PlotScale& x, const PanelGeometry& g);

  StoreReader& reader_;
  const ConnectionRecord& conn_;
  Direction dir_;
  int64_t start_ns_;
  const std::vector<double>& limits_;
  std::vector<ana::RttEvent> samples_;
};

}  // namespace rudp::report
