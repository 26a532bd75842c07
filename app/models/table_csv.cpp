#include "models/table_csv.h"

#include <QAbstractItemModel>
#include <QHeaderView>
#include <QTableView>
#include <algorithm>

#include "compare/csv_text.h"

namespace rudp::gui {

namespace {
QList<int> allOf(int n) {
  QList<int> all;
  for (int i = 0; i < n; ++i) all << i;
  return all;
}

void appendRecord(QString& out, const QStringList& fields) {
  for (int i = 0; i < fields.size(); ++i) {
    if (i) out += QLatin1Char(',');
    out += csvField(fields[i]);
  }
  out += QStringLiteral("\r\n");
}

// Reads one field starting at `i`; leaves `i` on the character after it.
QString readField(const QString& csv, qsizetype& i) {
  QString field;
  if (i < csv.size() && csv[i] == QLatin1Char('"')) {
    for (++i; i < csv.size(); ++i) {
      if (csv[i] != QLatin1Char('"')) {
        field += csv[i];
        continue;
      }
      if (i + 1 < csv.size() && csv[i + 1] == QLatin1Char('"')) {
        field += QLatin1Char('"');
        ++i;
        continue;
      }
      ++i;
      break;
    }
  }
  while (i < csv.size() && csv[i] != QLatin1Char(',') && csv[i] != QLatin1Char('\r') &&
         csv[i] != QLatin1Char('\n'))
    field += csv[i++];
  return field;
}
}  // namespace

QString csvField(const QString& text) { return QString::fromStdString(cmp::csvField(text.toStdString())); }

QString tableToCsv(const QAbstractItemModel& model, const CsvSelection& selection) {
  const QList<int> columns = selection.columns.isEmpty() ? allOf(model.columnCount()) : selection.columns;
  const QList<int> rows = selection.rows.isEmpty() ? allOf(model.rowCount()) : selection.rows;
  QString out;
  QStringList fields;
  for (int c : columns)
    fields << model.headerData(c, Qt::Horizontal).toString().replace(QLatin1Char('\n'), QLatin1Char(' '));
  appendRecord(out, fields);
  for (int r : rows) {
    fields.clear();
    for (int c : columns) fields << model.index(r, c).data().toString();
    appendRecord(out, fields);
  }
  return out;
}

QList<int> visibleColumns(const QHeaderView& header) {
  QList<int> columns;
  for (int v = 0; v < header.count(); ++v) {
    const int logical = header.logicalIndex(v);
    if (!header.isSectionHidden(logical)) columns << logical;
  }
  return columns;
}

QString viewToCsv(const QTableView& view) {
  return tableToCsv(*view.model(), {visibleColumns(*view.horizontalHeader()), {}});
}

QString viewSelectionToCsv(const QTableView& view) {
  QList<int> rows;
  for (const QModelIndex& i : view.selectionModel()->selectedRows()) rows << i.row();
  if (rows.isEmpty()) return {};
  std::sort(rows.begin(), rows.end());
  return tableToCsv(*view.model(), {visibleColumns(*view.horizontalHeader()), rows});
}

QList<QStringList> parseCsv(const QString& csv) {
  QList<QStringList> records;
  QStringList record;
  qsizetype i = 0;
  while (i < csv.size()) {
    record << readField(csv, i);
    if (i < csv.size() && csv[i] == QLatin1Char(',')) {
      ++i;
      continue;
    }
    if (i < csv.size() && csv[i] == QLatin1Char('\r')) ++i;
    if (i < csv.size() && csv[i] == QLatin1Char('\n')) ++i;
    records << record;
    record.clear();
  }
  if (!record.isEmpty()) records << (record << QString());  // input ended right after a comma
  return records;
}

}  // namespace rudp::gui
