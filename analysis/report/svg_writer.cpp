#include "report/svg_writer.h"

#include <cstdio>

#include "report/markup.h"

namespace rudp::report {

SvgWriter::SvgWriter(double width, double height, std::string_view label)
    : width_(width), height_(height), label_(label) {}

void SvgWriter::attr(std::string_view name, double v) {
  body_ += ' ';
  body_ += name;
  body_ += "=\"";
  body_ += coord(v);
  body_ += '"';
}

void SvgWriter::open(std::string_view tag, std::string_view cls) {
  body_ += '<';
  body_ += tag;
  if (!cls.empty()) body_ += " class=\"" + escapeXml(cls) + "\"";
}

void SvgWriter::paint(const Paint& p) {
  body_ += " fill=\"" + escapeXml(p.fill) + "\"";
  if (p.stroke != "none") {
    body_ += " stroke=\"" + escapeXml(p.stroke) + "\"";
    attr("stroke-width", p.stroke_width);
    if (!p.dash.empty()) body_ += " stroke-dasharray=\"" + escapeXml(p.dash) + "\"";
  }
  if (p.opacity < 1) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%.2f", p.opacity);
    body_ += std::string(" opacity=\"") + buf + "\"";
  }
}

void SvgWriter::close(std::string_view tag, std::string_view title) {
  if (title.empty()) {
    body_ += "/>";
    return;
  }
  body_ += "><title>" + escapeXml(title) + "</title></";
  body_ += tag;
  body_ += '>';
}

void SvgWriter::clipRect(std::string_view id, double x, double y, double w, double h) {
  defs_ += "<clipPath id=\"" + escapeXml(id) + "\"><rect x=\"" + coord(x) + "\" y=\"" + coord(y) +
           "\" width=\"" + coord(w) + "\" height=\"" + coord(h) + "\"/></clipPath>";
}

void SvgWriter::beginGroup(std::string_view cls, std::string_view clipId) {
  open("g", cls);
  if (!clipId.empty()) body_ += " clip-path=\"url(#" + escapeXml(clipId) + ")\"";
  body_ += ">\n";
  ++depth_;
}

void SvgWriter::endGroup() {
  if (depth_ == 0) return;
  body_ += "</g>\n";
  --depth_;
}

void SvgWriter::rect(double x, double y, double w, double h, const Paint& p, std::string_view cls,
                     std::string_view title) {
  open("rect", cls);
  attr("x", x), attr("y", y), attr("width", w), attr("height", h);
  paint(p);
  close("rect", title);
  body_ += '\n';
}

void SvgWriter::line(double x1, double y1, double x2, double y2, const Paint& p, std::string_view cls) {
  open("line", cls);
  attr("x1", x1), attr("y1", y1), attr("x2", x2), attr("y2", y2);
  paint(p);
  close("line", {});
  body_ += '\n';
}

void SvgWriter::polyline(const std::vector<Point>& points, const Paint& p, std::string_view cls) {
  if (points.empty()) return;
  open("polyline", cls);
  body_ += " points=\"";
  for (size_t i = 0; i < points.size(); ++i) {
    if (i) body_ += ' ';
    body_ += coord(points[i].x) + "," + coord(points[i].y);
  }
  body_ += '"';
  paint(p);
  close("polyline", {});
  body_ += '\n';
}

void SvgWriter::circle(double cx, double cy, double r, const Paint& p, std::string_view cls,
                       std::string_view title) {
  open("circle", cls);
  attr("cx", cx), attr("cy", cy), attr("r", r);
  paint(p);
  close("circle", title);
  body_ += '\n';
}

void SvgWriter::mark(MarkShape shape, double x, double y, double size, const Paint& p, std::string_view cls,
                     std::string_view title) {
  const double h = size / 2;
  if (shape == MarkShape::Circle) return circle(x, y, h, p, cls, title);
  if (shape == MarkShape::Square) return rect(x - h, y - h, size, size, p, cls, title);
  std::string d;
  auto pt = [&](char cmd, double px, double py) { d += cmd + coord(px) + " " + coord(py); };
  switch (shape) {
    case MarkShape::TriangleDown:
      pt('M', x - h, y - h), pt('L', x + h, y - h), pt('L', x, y + h), d += 'Z';
      break;
    case MarkShape::Diamond:
      pt('M', x, y - h), pt('L', x + h, y), pt('L', x, y + h), pt('L', x - h, y), d += 'Z';
      break;
    case MarkShape::Cross:
      pt('M', x - h, y - h), pt('L', x + h, y + h), pt('M', x - h, y + h), pt('L', x + h, y - h);
      break;
    default: break;
  }
  open("path", cls);
  body_ += " d=\"" + d + "\"";
  paint(p);
  close("path", title);
  body_ += '\n';
}

void SvgWriter::text(double x, double y, std::string_view s, const TextStyle& style) {
  open("text", style.cls);
  attr("x", x), attr("y", y), attr("font-size", style.size);
  body_ += " font-family=\"sans-serif\" fill=\"" + escapeXml(style.colour) + "\"";
  if (style.anchor != "start") body_ += " text-anchor=\"" + escapeXml(style.anchor) + "\"";
  if (style.bold) body_ += " font-weight=\"bold\"";
  body_ += '>' + escapeXml(s) + "</text>\n";
}

std::string SvgWriter::finish() {
  while (depth_ > 0) endGroup();
  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + coord(width_) + "\" height=\"" +
                    coord(height_) + "\" viewBox=\"0 0 " + coord(width_) + " " + coord(height_) + "\"";
  if (!root_attrs_.empty()) out += " " + root_attrs_;
  out += " role=\"img\">\n<title>" + escapeXml(label_) + "</title>\n";
  if (!defs_.empty()) out += "<defs>" + defs_ + "</defs>\n";
  out += body_;
  out += "</svg>\n";
  return out;
}

}  // namespace rudp::report
