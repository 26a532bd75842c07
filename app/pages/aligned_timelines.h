// The Compare page's timelines: the compared connections (at most
// kMaxTimelines) stacked, each on the time since its own connection's first
// packet, all over the longest connection's span, so the same second of two
// runs lines up. Zooming or panning one moves the others the same way.
// Each timeline is read from its capture's database on a worker thread; a
// newer request drops an older one's result.
#pragma once
#include <QString>
#include <QWidget>
#include <memory>
#include <vector>

#include "flow/connection.h"
#include "jobs/job_runner.h"
#include "widgets/timeline_data.h"

class QLabel;
class QVBoxLayout;

namespace rudp::gui {

class TimelineView;

struct TimelineRequest {
  QString name;  // shown above the timeline
  QString db;    // the capture's database
  int64_t conn = 0;
  Direction dir{};
};

class AlignedTimelines : public QWidget {
  Q_OBJECT
 public:
  static constexpr int kMaxTimelines = 4;

  explicit AlignedTimelines(QWidget* parent = nullptr);
  ~AlignedTimelines() override;

  // Loads the first kMaxTimelines requests (the rest are named in the note).
  void load(std::vector<TimelineRequest> requests);
  void clear();
  bool loading() const { return m_tracker.isRunning(); }
  int count() const { return static_cast<int>(m_views.size()); }
  TimelineView* view(int i) const { return m_views.at(i); }
  QString note() const;

  // Each timeline's time counted from its connection's first packet, all
  // ending where the longest ends (the shorter ones run on empty).
  static std::vector<std::shared_ptr<const TimelineData>> align(std::vector<TimelineData> timelines);

 signals:
  // The timelines (or why they could not be read) are on screen.
  void timelinesShown();

 private:
  struct Loaded {
    std::vector<TimelineData> timelines;
    QString error;  // one line when a timeline could not be read
  };
  static Loaded read(const std::vector<TimelineRequest>& requests);
  void show(const std::vector<TimelineRequest>& requests, Loaded loaded);
  void follow(TimelineView* source, qint64 startNs, qint64 endNs);
  void removeViews();

  QVBoxLayout* m_layout;
  QLabel* m_note;
  std::vector<TimelineView*> m_views;
  std::vector<QLabel*> m_titles;
  JobRunner* m_runner;
  JobTracker m_tracker;
  bool m_following = false;  // moving the others: their own rangeChanged is not followed
};

}  // namespace rudp::gui
