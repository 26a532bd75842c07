// The columns of the Connections table: what each shows, in which unit, and
// how the two directions of a per-direction figure combine into the one raw
// number the table sorts by.
#pragma once
#include <QString>
#include <QVariant>
#include <functional>
#include <vector>

#include "models/value_text.h"
#include "store/records.h"

namespace rudp::gui {

// How a per-direction column's two values make its sort value.
enum class Combine { Sum, Max };

struct ConnectionColumn {
  QString id;     // stable key (settings remember hidden columns by it)
  QString title;  // header text, unit included
  QString tip;    // header tooltip: what the number is
  NumberKind kind = NumberKind::Count;
  bool hiddenByDefault = false;
  // Exactly one of these is set. `whole`: one value per connection (QString
  // for text columns). `perDirection`: client→server and server→client,
  // shown as "c→s / s→c"; an invalid QVariant where the analysis has none.
  std::function<QVariant(const ConnectionRecord&)> whole;
  std::function<QVariant(const ConnectionRecord&, Direction)> perDirection;
  Combine combine = Combine::Sum;
  // Optional, per-direction columns: a mark after the number ("~" on RTT
  // figures that are not full round trips).
  std::function<QString(const ConnectionRecord&, Direction)> mark;
};

// Every column, in display order. The "> L ms" columns follow the analysis
// settings' RTT limits (the first one visible, the others hidden by default).
std::vector<ConnectionColumn> connectionColumns(const AnalysisSettings& settings, int64_t captureStartNs);

// The sort value of a per-direction column: invalid when both are missing.
QVariant combineDirections(const QVariant& c2s, const QVariant& s2c, Combine how);

}  // namespace rudp::gui
