#include "widgets/timeline_actions.h"

namespace rudp::gui {

const std::vector<TimelineActionInfo>& timelineActions() {
  using A = TimelineAction;
  static const std::vector<TimelineActionInfo> table{
      {A::ZoomIn, "Zoom In", "+"},
      {A::ZoomOut, "Zoom Out", "-"},
      {A::ZoomInX, "Zoom In X Axis", "x"},
      {A::ZoomOutX, "Zoom Out X Axis", "Shift+X"},
      {A::ZoomInY, "Zoom In Y Axis", "y"},
      {A::ZoomOutY, "Zoom Out Y Axis", "Shift+Y"},
      {A::Reset, "Reset Graph", "0"},
      {A::PanLeft, "Move Left 10%", "Left"},
      {A::PanRight, "Move Right 10%", "Right"},
      {A::PanUp, "Move Up 10%", "Up"},
      {A::PanDown, "Move Down 10%", "Down"},
      {A::PanLeftFine, "Move Left 1%", "Shift+Left", false},
      {A::PanRightFine, "Move Right 1%", "Shift+Right", false},
      {A::PanUpFine, "Move Up 1%", "Shift+Up", false},
      {A::PanDownFine, "Move Down 1%", "Shift+Down", false},
      {A::ToggleCrosshair, "Crosshairs", "Space"},
      {A::ToggleDragMode, "Drag / Zoom Mode", "Z"},
      {A::SwitchDirection, "Switch Direction", "D"},
      {A::GoToPacket, "Go to Packet Under Cursor", "G"},
      {A::NextConnection, "Next Connection", "PgDown"},
      {A::PreviousConnection, "Previous Connection", "PgUp"},
      {A::SavePng, "Save as PNG...", ""},
      {A::SaveSvg, "Save as SVG...", ""},
  };
  return table;
}

std::optional<TimelineAction> timelineActionForKey(int key, Qt::KeyboardModifiers modifiers) {
  using A = TimelineAction;
  const bool shift = modifiers & Qt::ShiftModifier;
  auto pan = [&](A normal, A fine) { return shift ? fine : normal; };
  switch (key) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
    case Qt::Key_I: return A::ZoomIn;
    case Qt::Key_Minus:
    case Qt::Key_Underscore:
    case Qt::Key_O: return A::ZoomOut;
    case Qt::Key_X: return shift ? A::ZoomOutX : A::ZoomInX;
    case Qt::Key_Y: return shift ? A::ZoomOutY : A::ZoomInY;
    case Qt::Key_Left:
    case Qt::Key_H: return pan(A::PanLeft, A::PanLeftFine);
    case Qt::Key_Right:
    case Qt::Key_L: return pan(A::PanRight, A::PanRightFine);
    case Qt::Key_Up:
    case Qt::Key_K: return pan(A::PanUp, A::PanUpFine);
    case Qt::Key_Down:
    case Qt::Key_J: return pan(A::PanDown, A::PanDownFine);
    case Qt::Key_0:
    case Qt::Key_R:
    case Qt::Key_Home: return A::Reset;
    case Qt::Key_Space: return A::ToggleCrosshair;
    case Qt::Key_Z: return A::ToggleDragMode;
    case Qt::Key_D: return A::SwitchDirection;
    case Qt::Key_G: return A::GoToPacket;
    case Qt::Key_PageDown: return A::NextConnection;
    case Qt::Key_PageUp: return A::PreviousConnection;
    default: return std::nullopt;
  }
}

std::optional<ViewStep> viewStepOf(TimelineAction a) {
  using A = TimelineAction;
  const double in = kZoomStep, out = 1 / kZoomStep;
  switch (a) {
    case A::ZoomIn: return ViewStep{in, in};
    case A::ZoomOut: return ViewStep{out, out};
    case A::ZoomInX: return ViewStep{in, 1};
    case A::ZoomOutX: return ViewStep{out, 1};
    case A::ZoomInY: return ViewStep{1, in};
    case A::ZoomOutY: return ViewStep{1, out};
    case A::PanLeft: return ViewStep{1, 1, -kPanStep, 0};
    case A::PanRight: return ViewStep{1, 1, kPanStep, 0};
    case A::PanUp: return ViewStep{1, 1, 0, kPanStep};
    case A::PanDown: return ViewStep{1, 1, 0, -kPanStep};
    case A::PanLeftFine: return ViewStep{1, 1, -kFinePanStep, 0};
    case A::PanRightFine: return ViewStep{1, 1, kFinePanStep, 0};
    case A::PanUpFine: return ViewStep{1, 1, 0, kFinePanStep};
    case A::PanDownFine: return ViewStep{1, 1, 0, -kFinePanStep};
    default: return std::nullopt;
  }
}

}  // namespace rudp::gui
