#include "pages/packets_page.h"

#include <QAction>
#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QTreeWidgetItem>
#include <QVBoxLayout>
#include <filesystem>

#include "capture/frame_export.h"
#include "core/error.h"
#include "jobs/conversation_job.h"
#include "models/packet_list_model.h"
#include "pages/display_filter_bar.h"
#include "pages/packet_details_view.h"
#include "widgets/display_filter_edit.h"
#include "widgets/hex_view.h"

namespace rudp::gui {

namespace {
// The custom columns (Apply as Column), kept across captures as Wireshark does.
const char* const kColumnsKey = "packets/fieldColumns";
}  // namespace

PacketsPage::PacketsPage(QWidget* parent)
    : QWidget(parent),
      m_model(new PacketListModel(this)),
      m_filter(new DisplayFilterBar(m_model, this)),
      m_list(new QTableView(this)),
      m_details(new PacketDetailsView(this)),
      m_hex(new HexView(this)),
      m_goTo(new QLineEdit(this)),
      m_timeFormat(new QComboBox(this)),
      m_timeline(new QToolButton(this)),
      m_message(new QLabel(this)),
      m_exportRunner(new JobRunner(1, QStringLiteral("rudp-export"), this)) {
  m_list->setObjectName(QStringLiteral("packets.list"));
  m_list->setModel(m_model);
  m_list->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_list->setSelectionMode(QAbstractItemView::SingleSelection);
  m_list->setWordWrap(false);
  m_list->setShowGrid(false);
  m_list->verticalHeader()->hide();
  // A fixed row height: the view never asks every row for its size.
  m_list->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  m_list->verticalHeader()->setDefaultSectionSize(m_list->fontMetrics().height() + 4);
  m_list->horizontalHeader()->setStretchLastSection(true);
  const int digit = m_list->fontMetrics().horizontalAdvance(QLatin1Char('0'));
  for (auto [column, chars] : {std::pair{PacketListModel::Number, 8},
                               {PacketListModel::Time, 14},
                               {PacketListModel::Source, 18},
                               {PacketListModel::Destination, 18},
                               {PacketListModel::Protocol, 9},
                               {PacketListModel::Length, 7}})
    m_list->setColumnWidth(column, chars * digit + 12);
  connect(m_list->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &PacketsPage::showCurrent);
  connect(m_list, &QAbstractItemView::doubleClicked, this, &PacketsPage::requestTimeline);
  connect(m_details, &PacketDetailsView::bytesSelected, m_hex, &HexView::setHighlight);
  connect(m_hex, &HexView::byteClicked, m_details,
          [this](int offset) { m_details->selectByte(uint32_t(offset)); });
  connect(m_model, &PacketListModel::problemFound, this, &PacketsPage::setMessage);
  connect(m_details, &PacketDetailsView::applyAsColumn, this, &PacketsPage::addFieldColumn);
  connect(m_details, &PacketDetailsView::applyAsFilter, m_filter, &DisplayFilterBar::apply);
  m_list->horizontalHeader()->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(m_list->horizontalHeader(), &QWidget::customContextMenuRequested, this, &PacketsPage::headerMenu);
  connect(m_filter, &DisplayFilterBar::rowsReplaced, this, [this] {
    if (currentFrame() != 0) m_frameBeforeFilter = currentFrame();
    m_details->showNote(tr("Select a packet to see its details."));
    m_hex->setBytes({});
  });
  connect(m_filter, &DisplayFilterBar::finished, this, [this] {
    if (m_model->rowCount() == 0) return;
    const int row = m_model->rowOfFrame(m_frameBeforeFilter);
    selectRow(row >= 0 ? row : 0);
  });

  auto* splitter = new QSplitter(Qt::Vertical, this);
  splitter->addWidget(m_list);
  splitter->addWidget(m_details);
  splitter->addWidget(m_hex);
  splitter->setStretchFactor(0, 3);
  splitter->setStretchFactor(1, 2);
  splitter->setStretchFactor(2, 1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(8, 6, 8, 8);
  layout->addWidget(makeToolBar());
  layout->addWidget(m_filter);
  layout->addWidget(m_message);
  layout->addWidget(splitter, 1);
  m_message->setWordWrap(true);
  m_message->setObjectName(QStringLiteral("packets.message"));
  addShortcuts();
  clear();
}

PacketsPage::~PacketsPage() {
  m_conversation.reset();
  m_export.invalidate();
  m_exportRunner->waitForDone();
}

QWidget* PacketsPage::makeToolBar() {
  auto* bar = new QWidget(this);
  auto* layout = new QHBoxLayout(bar);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(new QLabel(tr("Go to packet:"), bar));
  m_goTo->setObjectName(QStringLiteral("packets.goto"));
  m_goTo->setPlaceholderText(tr("frame number (Ctrl+G)"));
  m_goTo->setMaximumWidth(18 * m_goTo->fontMetrics().horizontalAdvance(QLatin1Char('0')));
  connect(m_goTo, &QLineEdit::returnPressed, this, &PacketsPage::goToTyped);
  layout->addWidget(m_goTo);
  layout->addSpacing(16);
  layout->addWidget(new QLabel(tr("Time:"), bar));
  m_timeFormat->setObjectName(QStringLiteral("packets.timeFormat"));
  for (const TimeFormatInfo& f : timeFormats()) m_timeFormat->addItem(tr(f.label), int(f.format));
  m_timeFormat->setCurrentIndex(m_timeFormat->findData(int(TimeFormat::Relative)));
  connect(m_timeFormat, &QComboBox::activated, this,
          [this](int i) { m_model->setTimeFormat(TimeFormat(m_timeFormat->itemData(i).toInt())); });
  layout->addWidget(m_timeFormat);
  layout->addStretch(1);
  m_timeline->setText(tr("Show on Timeline"));
  m_timeline->setObjectName(QStringLiteral("packets.showOnTimeline"));
  m_timeline->setToolTip(
      tr("Shows the selected packet's connection on the Timeline, the packet marked "
         "(double click a packet does the same)"));
  connect(m_timeline, &QToolButton::clicked, this, &PacketsPage::requestTimeline);
  layout->addWidget(m_timeline);
  auto* exportButton = new QToolButton(bar);
  exportButton->setText(tr("Export Specified Packets…"));
  exportButton->setObjectName(QStringLiteral("packets.export"));
  connect(exportButton, &QToolButton::clicked, this, &PacketsPage::chooseExport);
  layout->addWidget(exportButton);
  return bar;
}

void PacketsPage::addShortcuts() {
  auto add = [this](const QKeySequence& keys, auto slot) {
    auto* action = new QAction(this);
    action->setShortcut(keys);
    action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(action, &QAction::triggered, this, slot);
    addAction(action);
  };
  add(QKeySequence(Qt::CTRL | Qt::Key_G), [this] {
    m_goTo->setFocus();
    m_goTo->selectAll();
  });
  add(QKeySequence(Qt::CTRL | Qt::Key_Up), [this] { step(-1); });
  add(QKeySequence(Qt::CTRL | Qt::Key_Down), [this] { step(1); });
  add(QKeySequence(Qt::CTRL | Qt::Key_Home), [this] { selectRow(0); });
  add(QKeySequence(Qt::CTRL | Qt::Key_End), [this] { selectRow(m_model->rowCount() - 1); });
  add(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I), [this] {
    const QTreeWidgetItem* item = m_details->currentItem();
    if (item) addFieldColumn(item->data(0, PacketDetailsView::FieldRole).toString());
  });
  add(QKeySequence(Qt::CTRL | Qt::Key_Slash), [this] {
    m_filter->edit()->setFocus();
    m_filter->edit()->selectAll();
  });
  add(QKeySequence(Qt::CTRL | Qt::Key_M), [this] { toggleMark(); });
  add(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N), [this] { stepMark(1); });
  add(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B), [this] { stepMark(-1); });
}

void PacketsPage::open(const QString& dbPath, const QString& capturePath,
                       const DissectorOptions& dissectors) {
  clear();
  m_model->open(dbPath, capturePath, dissectors);
  m_replay = std::make_shared<ConversationReplay>(capturePath.toStdString());
  m_model->setTimeFormat(TimeFormat(m_timeFormat->currentData().toInt()));
  m_filter->open(dbPath, capturePath, dissectors);
  for (const QString& field : QSettings().value(QLatin1String(kColumnsKey)).toStringList())
    m_model->addFieldColumn(field);  // a field these dissectors lack is left out
  m_frameBeforeFilter = 0;
  setMessage(m_model->problem());
  if (m_model->rowCount() > 0) goToFrame(1);
}

void PacketsPage::clear() {
  m_conversation.reset();
  m_replay.reset();
  m_filter->clear();
  m_model->clear();
  m_details->showNote(tr("Select a packet to see its details."));
  m_hex->setBytes({});
  setMessage({});
}

bool PacketsPage::goToFrame(quint64 frame) {
  const int row = m_model->rowOfFrame(frame);
  if (row < 0) {
    if (m_model->isFiltered() && frame >= 1 && frame <= m_model->frameCount())
      setMessage(tr("Packet %1 is not displayed: the display filter hides it.").arg(frame));
    else
      setMessage(tr("There is no packet %1: the capture has packets 1 to %2.")
                     .arg(frame)
                     .arg(m_model->frameCount()));
    return false;
  }
  selectRow(row);
  return true;
}

void PacketsPage::selectRow(int row) {
  if (row < 0 || row >= m_model->rowCount()) return;
  const QModelIndex index = m_model->index(row, 0);
  m_list->setCurrentIndex(index);
  m_list->scrollTo(index, QAbstractItemView::PositionAtCenter);
}

quint64 PacketsPage::currentFrame() const {
  const QModelIndex index = m_list->currentIndex();
  return index.isValid() ? m_model->frameOfRow(index.row()) : 0;
}

void PacketsPage::step(int delta) {
  const QModelIndex index = m_list->currentIndex();
  selectRow(index.isValid() ? index.row() + delta : 0);
}

void PacketsPage::toggleMark() {
  const QModelIndex index = m_list->currentIndex();
  if (index.isValid()) m_model->setMarked(index.row(), !m_model->isMarked(index.row()));
}

void PacketsPage::stepMark(int delta) {
  const auto& marked = m_model->markedFrames();
  const quint64 at = currentFrame();
  if (delta > 0) {
    auto it = marked.upper_bound(at);
    if (it != marked.end()) goToFrame(*it);
  } else {
    auto it = marked.lower_bound(at);
    if (it != marked.begin()) goToFrame(*std::prev(it));
  }
}

void PacketsPage::showCurrent() {
  const QModelIndex index = m_list->currentIndex();
  m_timeline->setEnabled(index.isValid() && m_model->record(index.row()).value_or(PacketRecord{}).conn != 0);
  if (!index.isValid()) return;
  try {
    const DissectedFrame frame = m_model->dissect(index.row());
    m_details->showFrame(frame);
    m_hex->setBytes(frame.bytes);
    requestConversation(frame.frame);
  } catch (const Error& e) {
    m_details->showNote(QString::fromStdString(e.what()));
    m_hex->setBytes({});
  }
}

void PacketsPage::requestConversation(quint64 frame) {
  m_conversation.reset();  // cancels and waits: one job at a time uses the replay
  clearConversationMessage();
  if (!m_replay) return;
  m_conversation = std::make_unique<ConversationJob>(frame, m_replay);
  connect(m_conversation.get(), &ConversationJob::ready, this, &PacketsPage::showConversation);
  connect(m_conversation.get(), &ConversationJob::progressed, this, [this](quint64 at, double fraction) {
    m_conversationMessage =
        tr("Reading the frames before packet %1 for its stream and SEQ/ACK analysis: %2 %")
            .arg(at)
            .arg(int(fraction * 100));
    setMessage(m_conversationMessage);
  });
  connect(m_conversation.get(), &ConversationJob::failed, this, [this](quint64 at, const QString& message) {
    clearConversationMessage();
    setMessage(tr("Packet %1's stream and SEQ/ACK analysis: %2").arg(at).arg(message));
  });
  m_conversation->start();
}

void PacketsPage::clearConversationMessage() {
  if (!m_conversationMessage.isEmpty() && message() == m_conversationMessage) setMessage({});
  m_conversationMessage.clear();
}

void PacketsPage::showConversation(quint64 frame, const ConversationFacts& facts) {
  clearConversationMessage();
  const QModelIndex index = m_list->currentIndex();
  const bool items = facts.tcp || facts.udp.count > 0;
  if (!items || !index.isValid() || m_model->frameOfRow(index.row()) != frame) return;
  try {
    m_details->updateFrame(m_model->dissect(index.row(), &facts));
  } catch (const Error& e) { m_details->showNote(QString::fromStdString(e.what())); }
}

void PacketsPage::addFieldColumn(const QString& field) {
  if (field.isEmpty()) return;
  const QString error = m_model->addFieldColumn(field);
  if (!error.isEmpty()) return setMessage(tr("Apply as Column: %1").arg(error));
  QSettings().setValue(QLatin1String(kColumnsKey), m_model->fieldColumns());
}

void PacketsPage::removeFieldColumn(int column) {
  m_model->removeFieldColumn(column);
  QSettings().setValue(QLatin1String(kColumnsKey), m_model->fieldColumns());
}

void PacketsPage::headerMenu(const QPoint& pos) {
  const int column = m_list->horizontalHeader()->logicalIndexAt(pos);
  if (column < PacketListModel::ColumnCount) return;
  QMenu menu(this);
  menu.addAction(tr("Remove Column %1").arg(m_model->headerData(column, Qt::Horizontal).toString()), this,
                 [this, column] { removeFieldColumn(column); });
  menu.exec(m_list->horizontalHeader()->mapToGlobal(pos));
}

void PacketsPage::goToTyped() {
  bool ok = false;
  const quint64 frame = m_goTo->text().trimmed().toULongLong(&ok);
  if (!ok) {
    setMessage(tr("“%1” is not a packet number.").arg(m_goTo->text()));
    return;
  }
  if (goToFrame(frame)) {
    setMessage(m_model->problem());
    m_list->setFocus();
  }
}

void PacketsPage::requestTimeline() {
  const QModelIndex index = m_list->currentIndex();
  const std::optional<PacketRecord> p = index.isValid() ? m_model->record(index.row()) : std::nullopt;
  if (p && p->conn != 0) emit showOnTimelineRequested(p->conn, p->dir, p->ts_ns, p->frame);
}

void PacketsPage::chooseExport() {
  if (m_model->rowCount() == 0) return;
  bool markedOnly = false;
  if (!m_model->markedFrames().empty()) {
    QMessageBox box(QMessageBox::Question, tr("Export Specified Packets"), tr("Which packets?"),
                    QMessageBox::Cancel, this);
    QPushButton* marked =
        box.addButton(tr("%n Marked", nullptr, int(m_model->markedFrames().size())), QMessageBox::AcceptRole);
    QPushButton* all =
        box.addButton(tr("All %n Displayed", nullptr, m_model->rowCount()), QMessageBox::AcceptRole);
    box.exec();
    if (box.clickedButton() != marked && box.clickedButton() != all) return;
    markedOnly = box.clickedButton() == marked;
  }
  const QString target =
      QFileDialog::getSaveFileName(this, tr("Export Specified Packets"), QString(), tr("pcapng (*.pcapng)"));
  if (!target.isEmpty()) exportFrames(target, markedOnly);
}

void PacketsPage::exportFrames(const QString& target, bool markedOnly) {
  if (m_export.isRunning()) return setMessage(tr("An export is still running."));
  if (m_model->rowCount() == 0) return setMessage(tr("No packets are displayed: nothing to export."));
  // No frames named: every frame of the capture.
  const std::vector<uint64_t> frames =
      markedOnly ? std::vector<uint64_t>(m_model->markedFrames().begin(), m_model->markedFrames().end())
      : m_model->isFiltered() ? m_model->displayedFrames()
                              : std::vector<uint64_t>{};
  setMessage(tr("Exporting %1 packets to %2…")
                 .arg(markedOnly ? frames.size() : size_t(m_model->rowCount()))
                 .arg(target));
  const auto finished = [this](const ExportOutcome& outcome) {
    setMessage(outcome.text);
    emit exportFinished(outcome.text, outcome.ok);
  };
  m_exportRunner->run(
      m_export,
      [capture = m_model->capturePath().toStdString(), frames,
       path = target.toStdString()](const std::atomic<bool>& cancelled) -> ExportOutcome {
        try {
          const ExportResult r = rudp::exportFrames(capture, frames, path, &cancelled);
          if (!r.missing.empty()) {  // the capture changed since it was analysed: whole or nothing
            std::filesystem::remove(path);
            return {tr("the capture has no frame %1").arg(r.missing.front()), false};
          }
          return {tr("Exported %n packets to %1.", nullptr, int(r.written)).arg(QString::fromStdString(path)),
                  true};
        } catch (const Cancelled&) { return {tr("Export cancelled; nothing was written."), false}; }
      },
      finished,
      [finished](const QString& error) {
        finished({error, false});
      });
}

QString PacketsPage::message() const { return m_message->text(); }

void PacketsPage::setMessage(const QString& text) {
  m_message->setText(text);
  m_message->setVisible(!text.isEmpty());
}

}  // namespace rudp::gui
