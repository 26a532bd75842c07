// A small Qt-free SVG writer: shapes, text, groups and clip rectangles
// appended to one string. Every text and title is escaped; coordinates are
// written with one decimal at most, so big plots stay small.
#pragma once
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rudp::report {

struct Point {
  double x = 0, y = 0;
};

struct Paint {
  // A constructor, so `{fill, stroke, width}` may leave the rest at their defaults.
  Paint(std::string f = "none", std::string s = "none", double w = 1, std::string d = {}, double o = 1)
      : fill(std::move(f)), stroke(std::move(s)), stroke_width(w), dash(std::move(d)), opacity(o) {}
  std::string fill = "none";
  std::string stroke = "none";
  double stroke_width = 1;
  std::string dash;    // stroke-dasharray, empty: solid
  double opacity = 1;  // of the whole shape
};

struct TextStyle {
  double size = 11;
  std::string colour = "#222";
  std::string anchor = "start";  // start, middle, end
  std::string cls;
  bool bold = false;
};

// Marks for events (each kind its own shape), centred on the point.
enum class MarkShape { TriangleDown, Diamond, Square, Cross, Circle };

class SvgWriter {
 public:
  // A root <svg> of this size in user units (viewBox 0 0 width height);
  // `label` becomes its <title> (read by screen readers and shown on hover).
  SvgWriter(double width, double height, std::string_view label);

  // Attributes of the root element beyond the size, e.g. class="timeline"
  // (written as given: the caller escapes values).
  void setRootAttributes(std::string attrs) { root_attrs_ = std::move(attrs); }

  void clipRect(std::string_view id, double x, double y, double w, double h);
  void beginGroup(std::string_view cls, std::string_view clipId = {});
  void endGroup();

  void rect(double x, double y, double w, double h, const Paint& p, std::string_view cls = {},
            std::string_view title = {});
  void line(double x1, double y1, double x2, double y2, const Paint& p, std::string_view cls = {});
  void polyline(const std::vector<Point>& points, const Paint& p, std::string_view cls = {});
  void circle(double cx, double cy, double r, const Paint& p, std::string_view cls = {},
              std::string_view title = {});
  void mark(MarkShape shape, double x, double y, double size, const Paint& p, std::string_view cls = {},
            std::string_view title = {});
  void text(double x, double y, std::string_view s, const TextStyle& style = {});

  // The document, with every open group closed.
  std::string finish();

 private:
  void open(std::string_view tag, std::string_view cls);
  void paint(const Paint& p);
  void close(std::string_view tag, std::string_view title);
  void attr(std::string_view name, double v);

  double width_, height_;
  std::string label_, root_attrs_, body_, defs_;
  int depth_ = 0;
};

}  // namespace rudp::report
