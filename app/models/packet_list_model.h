// Wireshark's packet list over the database's frames: No., Time, Source,
// Destination, Protocol, Length, Info. Nothing is loaded up front: a row's
// stored fields and its columns (its frame read back from the capture and
// dissected again, packets/frame_dissector.h) are fetched by pages of
// kPageRows when a view first asks for them, and at most kMaxPages pages are
// kept (least recently used go first), so memory is bounded for any capture.
// As in Wireshark, the visible rows are fetched on the UI thread: a page is
// one indexed query and kPageRows small dissections. A display filter's
// result replaces the rows with the frames it passed (setDisplayedFrames),
// and grows while a filter that reads the capture again is running.
#pragma once
#include <QAbstractTableModel>
#include <QColor>
#include <QStringList>
#include <list>
#include <memory>
#include <optional>
#include <set>
#include <unordered_map>
#include <vector>

#include "lua/dissector_files.h"
#include "packets/frame_dissector.h"
#include "packets/frame_time.h"
#include "store/records.h"

namespace rudp {
class StoreReader;
}

namespace rudp::gui {

class PacketListModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Number, Time, Source, Destination, Protocol, Length, Info, ColumnCount };
  enum Role { FrameRole = Qt::UserRole, MarkedRole };
  static constexpr int kPageRows = 256;
  static constexpr size_t kMaxPages = 64;

  explicit PacketListModel(QObject* parent = nullptr);
  ~PacketListModel() override;

  // Shows the frames of the database at `dbPath`, read back from `capture`
  // with `dissectors`. A capture that cannot be read leaves the stored
  // columns (No., Time, Length) and says why in problem().
  void open(const QString& dbPath, const QString& capture, const DissectorOptions& dissectors);
  void clear();

  // Wireshark's custom columns: a field's values (as tshark -T fields
  // prints them) after Info. Adding an unknown field returns its one-line
  // error and changes nothing.
  QString addFieldColumn(const QString& field);
  void removeFieldColumn(int column);  // a column index >= ColumnCount
  QStringList fieldColumns() const { return m_fieldColumns; }

  void setTimeFormat(TimeFormat format);
  TimeFormat timeFormat() const { return m_format; }

  // The row's stored fields (nullopt: no such row).
  std::optional<PacketRecord> record(int row) const;
  // The row's frame dissected with its details and bytes, and its
  // conversation items when `facts` are its (ConversationReplay); throws Error.
  DissectedFrame dissect(int row, const ConversationFacts* facts = nullptr) const;
  // Row of frame `frame` (frames are numbered from 1 in file order); -1: not
  // displayed.
  int rowOfFrame(uint64_t frame) const;
  uint64_t frameOfRow(int row) const;

  // Displays only `frames` (ascending), as a display filter passed them;
  // appendDisplayedFrames adds later ones (a filter still running).
  void setDisplayedFrames(std::vector<uint64_t> frames);
  void appendDisplayedFrames(const std::vector<uint64_t>& frames);
  void displayAllFrames();
  bool isFiltered() const { return m_filtered; }
  const std::vector<uint64_t>& displayedFrames() const { return m_shown; }  // when filtered
  uint64_t frameCount() const { return m_frames; }                          // displayed or not
  int64_t firstTimestamp() const { return m_firstTsNs; }

  void setMarked(int row, bool marked);
  bool isMarked(int row) const { return m_marked.count(frameOfRow(row)) != 0; }
  const std::set<uint64_t>& markedFrames() const { return m_marked; }
  void clearMarks();

  // One line when the capture could not be read back; empty otherwise.
  QString problem() const { return m_problem; }
  const QString& capturePath() const { return m_capture; }
  const QString& dbPath() const { return m_dbPath; }
  int timestampDigits() const { return m_digits; }
  size_t cachedPages() const { return m_pages.size(); }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 signals:
  // The capture stopped being readable while rows were fetched.
  void problemFound(const QString& message);

 private:
  struct Row {
    PacketRecord stored;
    int64_t previous_ts_ns = 0, previous_displayed_ts_ns = 0;
    QString source, destination, protocol, info;
    QStringList fields;  // m_fieldColumns values
  };
  using Page = std::vector<Row>;
  void forget();  // no capture: no rows, pages, marks or problem
  const Row* row(int r) const;
  const Page& page(int index) const;
  Page loadPage(int index) const;
  Page loadFilteredPage(int index) const;
  void setColumns(Row& r) const;
  std::vector<std::string> fieldNames() const;
  void setDissectorColumns();
  void dropPages();
  QVariant rowColor(int row, bool marked, int role) const;
  QString timeText(const Row& r) const;
  void fail(const QString& message) const;

  QString m_dbPath, m_capture;
  mutable QString m_problem;
  std::unique_ptr<StoreReader> m_reader;
  mutable std::unique_ptr<FrameDissector> m_dissector;  // reset when the capture fails
  int64_t m_firstTsNs = 0;
  int m_rows = 0;
  uint64_t m_frames = 0;  // in the database
  bool m_filtered = false;
  std::vector<uint64_t> m_shown;  // filtered: the displayed frames, ascending
  int m_digits = 6;
  TimeFormat m_format = TimeFormat::Relative;
  std::set<uint64_t> m_marked;
  QStringList m_fieldColumns;
  // The page cache: most recently used at the front.
  mutable std::list<std::pair<int, Page>> m_pages;
  mutable std::unordered_map<int, std::list<std::pair<int, Page>>::iterator> m_pageIndex;
};

}  // namespace rudp::gui
