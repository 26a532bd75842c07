// The timeline's actions and their keys, Wireshark's stream-graph keys:
// +/=/I zoom in and -/_/O out (both axes); x/X and y/Y one axis in/out;
// arrows or H/J/K/L pan (Shift: fine); 0/R/Home reset; Space crosshair;
// Z drag or zoom mode; D switch direction; G go to the packet under the
// crosshair; PgDn/PgUp next/previous connection. The right-click menu lists
// the same table.
#pragma once
#include <Qt>
#include <optional>
#include <vector>

namespace rudp::gui {

enum class TimelineAction {
  ZoomIn,
  ZoomOut,
  ZoomInX,
  ZoomOutX,
  ZoomInY,
  ZoomOutY,
  PanLeft,
  PanRight,
  PanUp,
  PanDown,
  PanLeftFine,
  PanRightFine,
  PanUpFine,
  PanDownFine,
  Reset,
  ToggleCrosshair,
  ToggleDragMode,
  SwitchDirection,
  GoToPacket,
  NextConnection,
  PreviousConnection,
  SavePng,
  SaveSvg,
};

struct TimelineActionInfo {
  TimelineAction action;
  const char* text;  // menu text
  const char* keys;  // as shown in the menu
  bool inMenu = true;
};

// Every action in menu order.
const std::vector<TimelineActionInfo>& timelineActions();
std::optional<TimelineAction> timelineActionForKey(int key, Qt::KeyboardModifiers modifiers);

// What a zoom or pan action does: the factor applied to the span of x and y
// (1 = unchanged), or the pan in fractions of the span.
struct ViewStep {
  double zoomX = 1, zoomY = 1;
  double panX = 0, panY = 0;
};
inline constexpr double kZoomStep = 0.5;      // zoom in halves the span
inline constexpr double kPanStep = 0.1;       // arrows move a tenth of the span
inline constexpr double kFinePanStep = 0.01;  // with Shift, a hundredth
std::optional<ViewStep> viewStepOf(TimelineAction a);

}  // namespace rudp::gui
