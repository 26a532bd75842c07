#include "pages/display_filter_bar.h"

#include <QAction>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QToolButton>
#include <QVBoxLayout>

#include "core/error.h"
#include "models/packet_list_model.h"
#include "packets/frame_filter_scan.h"
#include "widgets/display_filter_edit.h"

namespace rudp::gui {

DisplayFilterBar::DisplayFilterBar(PacketListModel* model, QWidget* parent)
    : QWidget(parent),
      m_model(model),
      m_edit(new DisplayFilterEdit(this)),
      m_apply(new QToolButton(this)),
      m_progress(new QProgressBar(this)),
      m_cancel(new QToolButton(this)),
      m_status(new QLabel(this)) {
  auto* rows = new QVBoxLayout(this);
  rows->setContentsMargins(0, 0, 0, 0);
  rows->setSpacing(2);
  auto* layout = new QHBoxLayout;
  rows->addLayout(layout);
  layout->addWidget(m_edit, 1);
  m_apply->setText(tr("Apply"));
  m_apply->setObjectName(QStringLiteral("packets.applyFilter"));
  m_apply->setToolTip(tr("Apply the display filter (Enter)"));
  layout->addWidget(m_apply);
  m_progress->setObjectName(QStringLiteral("packets.filterProgress"));
  m_progress->setRange(0, 1000);
  m_progress->setMaximumWidth(160);
  m_progress->setTextVisible(false);
  layout->addWidget(m_progress);
  m_cancel->setText(tr("Cancel"));
  m_cancel->setObjectName(QStringLiteral("packets.cancelFilter"));
  m_cancel->setToolTip(tr("Stop the running display filter (Esc); the packets found so far stay"));
  layout->addWidget(m_cancel);
  m_status->setObjectName(QStringLiteral("packets.filterStatus"));
  m_status->setWordWrap(true);
  m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
  rows->addWidget(m_status);
  m_progress->hide();
  m_cancel->hide();
  connect(m_apply, &QToolButton::clicked, this, [this] { apply(m_edit->text().trimmed()); });
  connect(m_cancel, &QToolButton::clicked, this, &DisplayFilterBar::cancel);
  connect(m_edit, &DisplayFilterEdit::applyRequested, this, &DisplayFilterBar::apply);
  connect(m_edit, &DisplayFilterEdit::problemChanged, this, [this](const QString& message) {
    m_apply->setEnabled(message.isEmpty());
    if (!message.isEmpty()) setStatus(message);
  });
  auto* escape = new QAction(m_edit);
  escape->setShortcut(Qt::Key_Escape);
  escape->setShortcutContext(Qt::WidgetShortcut);
  connect(escape, &QAction::triggered, this, &DisplayFilterBar::cancel);
  m_edit->addAction(escape);
}

DisplayFilterBar::~DisplayFilterBar() = default;

void DisplayFilterBar::open(const QString& dbPath, const QString& capture,
                            const DissectorOptions& dissectors) {
  clear();
  m_request = FilterRequest{dbPath, capture, {}, dissectors, m_model->firstTimestamp(), std::nullopt};
  try {
    m_checker = std::make_unique<DisplayFilterChecker>(dissectors);
  } catch (const Error& e) {
    setStatus(tr("Display filters are not available: %1").arg(QString::fromStdString(e.what())));
  }
  m_edit->setChecker([this](const QString& text) -> std::optional<DisplayFilterEdit::Problem> {
    if (!m_checker) return DisplayFilterEdit::Problem{m_status->text(), 0};
    const std::optional<FilterError> e = m_checker->check(text.toStdString());
    if (!e) return std::nullopt;
    // FilterError positions are bytes of the UTF-8 text.
    return DisplayFilterEdit::Problem{QString::fromStdString(e->what()),
                                      int(QString::fromUtf8(text.toUtf8().left(int(e->position()))).size())};
  });
}

void DisplayFilterBar::clear() {
  dropJob();
  m_checker.reset();
  m_edit->setChecker({});
  m_edit->clear();
  m_progress->hide();
  m_cancel->hide();
  setStatus({});
}

void DisplayFilterBar::apply(const QString& filter) {
  if (m_edit->text().trimmed() != filter) m_edit->setText(filter);
  if (!m_edit->isValid()) return setStatus(m_edit->toolTip());
  dropJob();
  if (filter.isEmpty()) {
    m_model->displayAllFrames();
    emit rowsReplaced();
    return done({});
  }
  startJob(filter);
}

void DisplayFilterBar::startJob(const QString& filter) {
  FilterRequest request = m_request;
  request.filter = filter;
  try {
    request.stored_condition = m_checker->storedCondition(filter.toStdString(), request.first_ts_ns);
  } catch (const FilterError&) {}  // valid as typed: cannot happen; the job reports it then
  auto* job = new FilterJob(m_jobs.startJob(), std::move(request), this);
  m_job = job;
  connectJob(job);
  m_model->setDisplayedFrames({});
  emit rowsReplaced();
  m_edit->remember(filter);
  m_progress->setValue(0);
  m_progress->show();
  m_cancel->show();
  setStatus(tr("Filtering…"));
  m_clock.start();
  job->start();
}

void DisplayFilterBar::connectJob(FilterJob* job) {
  auto current = [this, job](quint64 id) { return m_jobs.isCurrent(id) && m_job == job; };
  connect(job, &FilterJob::started, this, [this, current](quint64 id, bool fromDatabase) {
    if (current(id)) m_fromDatabase = fromDatabase;
  });
  connect(job, &FilterJob::passed, this, [this, current](quint64 id, const std::vector<uint64_t>& frames) {
    if (current(id)) m_model->appendDisplayedFrames(frames);
  });
  connect(job, &FilterJob::progressed, this, [this, current](quint64 id, double fraction, quint64 read) {
    if (!current(id)) return;
    if (fraction >= 0) m_progress->setValue(int(fraction * 1000));
    setStatus(tr("Filtering: %1 packets read, %2 displayed…").arg(read).arg(m_model->rowCount()));
  });
  connect(job, &FilterJob::finished, this, [this, current](quint64 id, quint64 read) {
    if (!current(id)) return;
    const QString how =
        m_fromDatabase ? tr("answered from the database") : tr("%1 packets read again").arg(read);
    done(tr("Displayed: %1 of %2 packets (%3 in %4 ms)")
             .arg(m_model->rowCount())
             .arg(m_model->frameCount())
             .arg(how)
             .arg(m_clock.elapsed()));
  });
  connect(job, &FilterJob::failed, this, [this, current](quint64 id, const QString& message) {
    if (current(id)) done(tr("The filter failed: %1").arg(message));
  });
  connect(job, &FilterJob::cancelled, this, [this, current](quint64 id) {
    if (current(id))
      done(tr("Filter cancelled: %1 packets displayed from the part read").arg(m_model->rowCount()));
  });
}

void DisplayFilterBar::dropJob() {
  m_jobs.invalidate();
  if (!m_job) return;
  m_job->cancel();
  m_job->deleteLater();  // its destructor waits for the worker to stop
  m_job = nullptr;
}

void DisplayFilterBar::cancel() {
  if (m_job) m_job->cancel();
}

void DisplayFilterBar::done(const QString& status) {
  if (m_job) m_job->deleteLater();
  m_job = nullptr;
  m_progress->hide();
  m_cancel->hide();
  setStatus(status);
  emit finished();
}

QString DisplayFilterBar::status() const { return m_status->text(); }

void DisplayFilterBar::setStatus(const QString& text) {
  m_status->setText(text);
  m_status->setVisible(!text.isEmpty());
  emit statusChanged(text);
}

}  // namespace rudp::gui
