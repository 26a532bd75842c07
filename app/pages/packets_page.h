// The Packets page: Wireshark's three panes over the analysed capture. The
// packet list (PacketListModel: any number of frames, fetched as shown), the
// selected frame's details (PacketDetailsView) and its bytes (HexView), the
// selected item's bytes highlighted. Keys as in Wireshark: Ctrl+G go to
// packet, Ctrl+Up/Down previous/next, Ctrl+Home/End first/last, Ctrl+M mark,
// Ctrl+Shift+N/B next/previous mark, Ctrl+/ the display filter
// (DisplayFilterBar); Export Specified Packets writes the displayed or the
// marked frames as pcapng in the background.
#pragma once
#include <QWidget>
#include <atomic>
#include <memory>

#include "jobs/job_runner.h"
#include "lua/dissector_files.h"
#include "packets/conversation_replay.h"
#include "store/records.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;
class QToolButton;

namespace rudp::gui {

class ConversationJob;
class DisplayFilterBar;
class HexView;
class PacketDetailsView;
class PacketListModel;

class PacketsPage : public QWidget {
  Q_OBJECT
 public:
  explicit PacketsPage(QWidget* parent = nullptr);
  ~PacketsPage() override;

  void open(const QString& dbPath, const QString& capturePath, const DissectorOptions& dissectors);
  void clear();

  // Selects frame `frame` and scrolls to it; false (and a message) when the
  // capture has no such frame.
  bool goToFrame(quint64 frame);
  quint64 currentFrame() const;
  void step(int delta);  // Ctrl+Up / Ctrl+Down
  void toggleMark();
  void stepMark(int delta);  // to the next (1) or previous (-1) marked frame
  // Exports in the background; exportFinished says how it went.
  void exportFrames(const QString& target, bool markedOnly);
  void chooseExport();
  // Wireshark's Apply as Column (Ctrl+Shift+I): the field's values after
  // Info; kept for the next capture. Right-click its header to remove it.
  void addFieldColumn(const QString& field);
  void removeFieldColumn(int column);

  PacketListModel* model() const { return m_model; }
  QTableView* list() const { return m_list; }
  PacketDetailsView* details() const { return m_details; }
  HexView* bytesView() const { return m_hex; }
  DisplayFilterBar* filterBar() const { return m_filter; }
  QString message() const;

 signals:
  // "Show on Timeline": the frame's connection and direction around its time.
  void showOnTimelineRequested(qint64 conn, rudp::Direction dir, qint64 ts_ns, quint64 frame);
  void exportFinished(const QString& message, bool ok);

 private:
  QWidget* makeToolBar();
  void addShortcuts();
  void showCurrent();
  // The current row's conversation items, worked out in the background.
  void requestConversation(quint64 frame);
  void showConversation(quint64 frame, const ConversationFacts& facts);
  void clearConversationMessage();  // the replay's progress, if it is still shown
  void goToTyped();
  void selectRow(int row);
  void headerMenu(const QPoint& pos);
  void requestTimeline();
  void setMessage(const QString& text);

  PacketListModel* m_model;
  DisplayFilterBar* m_filter;
  quint64 m_frameBeforeFilter = 0;  // selected again when the filter displays it
  QTableView* m_list;
  PacketDetailsView* m_details;
  HexView* m_hex;
  QLineEdit* m_goTo;
  QComboBox* m_timeFormat;
  QToolButton* m_timeline;
  QLabel* m_message;
  struct ExportOutcome {
    QString text;  // shown in the message line
    bool ok = false;
  };
  JobRunner* m_exportRunner;
  JobTracker m_export;
  std::shared_ptr<ConversationReplay> m_replay;  // the open capture's
  std::unique_ptr<ConversationJob> m_conversation;
  QString m_conversationMessage;  // the replay's progress last shown
};

}  // namespace rudp::gui
