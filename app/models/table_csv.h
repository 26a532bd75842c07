// Tables as CSV (RFC 4180): fields holding a comma, a double quote, CR or LF
// are quoted, quotes doubled, records end with CRLF. The first record is the
// header (line breaks inside a header become spaces).
#pragma once
#include <QList>
#include <QString>
#include <QStringList>

class QAbstractItemModel;
class QHeaderView;
class QTableView;

namespace rudp::gui {

struct CsvSelection {
  QList<int> columns;  // model columns, in output order; empty: all, in model order
  QList<int> rows;     // model rows, in output order; empty: all
};

// The model's DisplayRole texts.
QString tableToCsv(const QAbstractItemModel& model, const CsvSelection& selection = {});

// The columns `header` shows, in visual order (what a user sees left to right).
QList<int> visibleColumns(const QHeaderView& header);

// What a table view shows (its model's rows in view order, the visible
// columns in visual order): every row, or the selected rows ("" when none).
QString viewToCsv(const QTableView& view);
QString viewSelectionToCsv(const QTableView& view);

// One field, quoted when RFC 4180 needs it: compare/csv_text.h's writer, for QString.
QString csvField(const QString& text);

// Parses CSV text back into records (either line ending; quoted fields may
// span lines). The inverse of tableToCsv.
QList<QStringList> parseCsv(const QString& csv);

}  // namespace rudp::gui
