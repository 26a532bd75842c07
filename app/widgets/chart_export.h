// PNG and SVG export through the widget's own paint routine (QSvgGenerator
// for SVG), shared by the timeline and the statistics charts.
#pragma once
#include <QPainter>
#include <QSize>
#include <QString>
#include <functional>

class QWidget;

namespace rudp::gui {

// `requested` when valid, else the widget's size, else its size hint.
QSize exportSize(const QWidget* widget, QSize requested);

using ChartPaint = std::function<void(QPainter&, QSize)>;

bool exportChartPng(const QString& path, QSize size, const ChartPaint& paint);
bool exportChartSvg(const QString& path, QSize size, const QString& title, const ChartPaint& paint);
// Asks for a file name and exports (PNG or SVG by `svg`); false when cancelled or failed.
bool saveChartAs(QWidget* parent, bool svg, QSize size, const QString& title, const ChartPaint& paint);

}  // namespace rudp::gui
