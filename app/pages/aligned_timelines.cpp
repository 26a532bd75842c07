#include "pages/aligned_timelines.h"

#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>
#include <algorithm>
#include <exception>

#include "store/store_reader.h"
#include "widgets/timeline_view.h"

namespace rudp::gui {

namespace {
constexpr int kTimelineHeight = 600;  // every lane and the time axis readable
}

AlignedTimelines::AlignedTimelines(QWidget* parent)
    : QWidget(parent),
      m_note(new QLabel),
      m_runner(new JobRunner(1, QStringLiteral("rudp-timelines"), this)) {
  m_note->setObjectName(QStringLiteral("timelines.note"));
  m_note->setWordWrap(true);
  auto* content = new QWidget;
  m_layout = new QVBoxLayout(content);
  m_layout->setSizeConstraint(QLayout::SetMinimumSize);  // taller than the view: the area scrolls
  m_layout->addStretch(1);
  auto* scroll = new QScrollArea;
  scroll->setWidgetResizable(true);
  scroll->setWidget(content);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(m_note);
  layout->addWidget(scroll, 1);
  clear();
}

AlignedTimelines::~AlignedTimelines() = default;

std::vector<std::shared_ptr<const TimelineData>> AlignedTimelines::align(
    std::vector<TimelineData> timelines) {
  int64_t longest = 0;
  for (const TimelineData& t : timelines) longest = std::max(longest, t.last_ns - t.first_ns);
  std::vector<std::shared_ptr<const TimelineData>> out;
  for (TimelineData& t : timelines) {
    t.origin_ns = t.first_ns;
    t.origin_is_connection_start = true;
    t.last_ns = t.first_ns + longest;
    out.push_back(std::make_shared<const TimelineData>(std::move(t)));
  }
  return out;
}

void AlignedTimelines::clear() {
  m_tracker.invalidate();
  removeViews();
  m_note->setText(
      tr("Check connections in the list to see their timelines here, aligned on each one's start."));
}

void AlignedTimelines::removeViews() {
  for (TimelineView* v : m_views) v->deleteLater();
  for (QLabel* l : m_titles) l->deleteLater();
  m_views.clear();
  m_titles.clear();
}

AlignedTimelines::Loaded AlignedTimelines::read(const std::vector<TimelineRequest>& requests) {
  Loaded loaded;
  for (const TimelineRequest& r : requests) {
    try {
      StoreReader reader(r.db.toStdString());
      loaded.timelines.push_back(loadTimelineData(reader, r.conn));
    } catch (const std::exception& e) {
      loaded.error = tr("Cannot read the timeline of %1: %2").arg(r.name, QString::fromStdString(e.what()));
      loaded.timelines.clear();
      return loaded;
    }
  }
  return loaded;
}

void AlignedTimelines::load(std::vector<TimelineRequest> requests) {
  if (requests.empty()) return clear();
  const int left = std::max(0, static_cast<int>(requests.size()) - kMaxTimelines);
  requests.resize(std::min<size_t>(requests.size(), kMaxTimelines));
  m_note->setText(tr("Reading the timelines…"));
  const auto shown = [this, requests, left](Loaded result) {
    const bool ok = result.error.isEmpty();
    show(requests, std::move(result));
    if (ok && left > 0)
      m_note->setText(
          tr("The first %1 checked connections; %2 more are not shown.").arg(kMaxTimelines).arg(left));
    emit timelinesShown();
  };
  m_runner->run(
      m_tracker, [requests] { return read(requests); }, shown,
      [shown](const QString& error) {
        shown(Loaded{{}, error});
      });
}

void AlignedTimelines::show(const std::vector<TimelineRequest>& requests, Loaded loaded) {
  removeViews();
  if (!loaded.error.isEmpty()) {
    m_note->setText(loaded.error);
    return;
  }
  m_note->setText(tr("Time since each connection's first packet; zoom or pan one and the others follow."));
  const auto aligned = align(std::move(loaded.timelines));
  for (size_t i = 0; i < aligned.size(); ++i) {
    auto* title = new QLabel(requests[i].name);
    auto* view = new TimelineView;
    view->setObjectName(QStringLiteral("timelines.view%1").arg(i));
    view->setMinimumHeight(kTimelineHeight);
    view->setData(aligned[i]);
    view->setDirection(requests[i].dir);
    connect(view, &TimelineView::rangeChanged, this,
            [this, view](qint64 startNs, qint64 endNs) { follow(view, startNs, endNs); });
    const int at = m_layout->count() - 1;  // above the stretch
    m_layout->insertWidget(at, title);
    m_layout->insertWidget(at + 1, view);
    m_titles.push_back(title);
    m_views.push_back(view);
  }
}

// The same offsets from each connection's start (every span has one length).
void AlignedTimelines::follow(TimelineView* source, qint64 startNs, qint64 endNs) {
  if (m_following || !source->data()) return;
  m_following = true;
  const int64_t from = startNs - source->data()->first_ns, to = endNs - source->data()->first_ns;
  for (TimelineView* v : m_views)
    if (v != source && v->data()) v->setTimeRange(v->data()->first_ns + from, v->data()->first_ns + to);
  m_following = false;
}

QString AlignedTimelines::note() const { return m_note->text(); }

}  // namespace rudp::gui
