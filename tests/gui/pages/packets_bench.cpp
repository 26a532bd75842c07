// packets-bench CAPTURE DATABASE: the Packets page (offscreen) over an
// analysed capture. Prints "key: value" lines for tests/bench/bench_packets.sh:
// the time to open the list and paint its first rows, the last frame's
// stream items (worked out in the background from every frame before it),
// jumps to random frames (select, dissect its details, paint), scrolling a
// wheel step (3 rows) and a page per painted frame, and the process's memory. Then the display filter
// bar: a filter over stored columns (answered by the database) and one over
// GRUDP fields (the capture read again), each timed from Enter to done, with
// the time until the first rows show, the frames displayed and the memory.
#include <QApplication>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "models/packet_list_model.h"
#include "pages/display_filter_bar.h"
#include "pages/packet_details_view.h"
#include "pages/packets_page.h"
#include "widgets/display_filter_edit.h"

using namespace rudp::gui;

namespace {

struct Spread {
  double median = 0, p95 = 0, max = 0;
  size_t over_frame = 0;  // steps slower than a 60 Hz frame (16.7 ms)
};

Spread spread(std::vector<double> ms) {
  std::sort(ms.begin(), ms.end());
  Spread s;
  s.median = ms[ms.size() / 2];
  s.p95 = ms[std::min(ms.size() - 1, ms.size() * 95 / 100)];
  s.max = ms.back();
  s.over_frame = size_t(std::count_if(ms.begin(), ms.end(), [](double v) { return v > 1000.0 / 60; }));
  return s;
}

void print(const char* name, const Spread& s, size_t n) {
  std::printf("%s_median_ms: %.2f\n%s_p95_ms: %.2f\n%s_max_ms: %.2f\n%s_steps: %zu\n%s_over_16_7ms: %zu\n",
              name, s.median, name, s.p95, name, s.max, name, n, name, s.over_frame);
}

long statusKb(const char* key) {
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);)
    if (line.rfind(key, 0) == 0) return std::stol(line.substr(std::string(key).size()));
  return -1;
}

double msSince(const QElapsedTimer& t) { return double(t.nsecsElapsed()) / 1e6; }

// Counts the list's paint events, so a step that painted nothing is caught.
struct PaintCounter : QObject {
  int paints = 0;
  bool eventFilter(QObject*, QEvent* e) override {
    if (e->type() == QEvent::Paint) ++paints;
    return false;
  }
};
PaintCounter painted;

// Scrolls `steps` times by `rows`, painting after each; the time per painted step.
std::vector<double> scroll(QTableView* list, int from, int rows, int steps) {
  QScrollBar* bar = list->verticalScrollBar();
  bar->setValue(from);
  list->viewport()->repaint();
  std::vector<double> ms;
  for (int i = 0; i < steps; ++i) {
    QElapsedTimer t;
    t.start();
    bar->setValue(bar->value() + rows);
    list->viewport()->repaint();
    ms.push_back(msSince(t));
  }
  return ms;
}

// Applies `filter` from the bar as Enter does; prints its figures as NAME_*.
bool timeFilter(PacketsPage& page, const char* name, const QString& filter) {
  DisplayFilterBar* bar = page.filterBar();
  QSignalSpy finished(bar, &DisplayFilterBar::finished);
  double firstRowsMs = -1;
  QElapsedTimer t;
  QMetaObject::Connection c = QObject::connect(page.model(), &QAbstractItemModel::rowsInserted, [&] {
    if (firstRowsMs < 0) firstRowsMs = msSince(t);
  });
  bar->edit()->setText(filter);
  t.start();
  bar->apply(filter);
  if (!finished.wait(3'600'000)) return false;
  const double ms = msSince(t);
  QObject::disconnect(c);
  const qulonglong frames = page.model()->frameCount();
  std::printf("%s_filter: %s\n", name, qPrintable(filter));
  std::printf("%s_ms: %.1f\n%s_first_rows_ms: %.1f\n", name, ms, name, firstRowsMs);
  std::printf("%s_displayed: %d\n%s_frames_per_s: %.0f\n", name, page.model()->rowCount(), name,
              double(frames) / (ms / 1000));
  std::printf("%s_status: %s\n", name, qPrintable(bar->status()));
  return bar->status().startsWith(QStringLiteral("Displayed: "));
}

}  // namespace

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  if (argc != 3) {
    std::fprintf(stderr, "usage: packets-bench CAPTURE DATABASE\n");
    return 2;
  }
  PacketsPage page;
  page.resize(1400, 900);
  page.show();
  if (!QTest::qWaitForWindowExposed(&page)) {
    std::fprintf(stderr, "packets-bench: the window was never exposed\n");
    return 1;
  }
  page.list()->viewport()->installEventFilter(&painted);
  QElapsedTimer t;
  t.start();
  page.open(QString::fromLocal8Bit(argv[2]), QString::fromLocal8Bit(argv[1]), rudp::DissectorOptions{});
  page.list()->viewport()->repaint();
  const double openMs = msSince(t);
  if (!page.model()->problem().isEmpty()) {
    std::fprintf(stderr, "packets-bench: %s\n", qPrintable(page.model()->problem()));
    return 1;
  }
  const int rows = page.model()->rowCount();
  std::printf("packets: %d\nopen_painted_ms: %.2f\n", rows, openMs);

  // The last frame's stream items (udp.stream and its times), which the
  // Packets page works out in the background from every frame before it.
  QElapsedTimer c;
  c.start();
  if (!page.goToFrame(quint64(rows))) return 1;
  const bool items = QTest::qWaitFor(
      [&] { return page.details()->itemOfField(QStringLiteral("udp.stream")) != nullptr; }, 600'000);
  if (!items) {
    std::fprintf(stderr, "packets-bench: the last frame's stream items never came\n");
    return 1;
  }
  std::printf("last_frame_stream_items_ms: %.0f\n", msSince(c));
  // One row up from there: the replay goes back to its last checkpoint, not
  // to the first frame.
  QElapsedTimer u;
  u.start();
  if (!page.goToFrame(quint64(rows) - 1)) return 1;
  if (!QTest::qWaitFor([&] { return page.details()->itemOfField(QStringLiteral("udp.stream")) != nullptr; },
                       600'000)) {
    std::fprintf(stderr, "packets-bench: the stream items one row up never came\n");
    return 1;
  }
  std::printf("one_row_up_stream_items_ms: %.0f\n", msSince(u));

  std::mt19937_64 random(7);
  std::vector<double> jumps;
  for (int i = 0; i < 100; ++i) {
    const quint64 frame = 1 + random() % uint64_t(rows);
    QElapsedTimer j;
    j.start();
    if (!page.goToFrame(frame)) return 1;
    page.list()->viewport()->repaint();
    jumps.push_back(msSince(j));
    if (page.currentFrame() != frame) {
      std::fprintf(stderr, "packets-bench: went to %llu, not %llu\n", page.currentFrame(), frame);
      return 1;
    }
  }
  print("jump", spread(jumps), jumps.size());
  const int visible = page.list()->viewport()->height() / page.list()->verticalHeader()->defaultSectionSize();
  const int start = int(random() % uint64_t(std::max(1, rows - 700 * visible)));
  print("scroll_wheel", spread(scroll(page.list(), start, 3, 600)), 600);
  print("scroll_page", spread(scroll(page.list(), start + 2000, visible, 600)), 600);
  // Every jump and scroll step painted the list (plus the open).
  std::printf("paints: %d of %d\n", painted.paints, 1 + 100 + 2 * 601);
  if (painted.paints < 1 + 100 + 2 * 601) return 1;
  std::printf("cached_pages: %zu\nrss_mb: %ld\npeak_rss_mb: %ld\n", page.model()->cachedPages(),
              statusKb("VmRSS:") / 1024, statusKb("VmHWM:") / 1024);
  if (!timeFilter(page, "stored", QStringLiteral("frame.len > 150 && frame.time_relative >= 10"))) return 1;
  if (!timeFilter(page, "fields",
                  QStringLiteral("grudp.type == DATA && grudp.flags.reliable && grudp.seq > 1000")))
    return 1;
  std::printf("filtered_rss_mb: %ld\nfiltered_peak_rss_mb: %ld\n", statusKb("VmRSS:") / 1024,
              statusKb("VmHWM:") / 1024);
  return 0;
}
