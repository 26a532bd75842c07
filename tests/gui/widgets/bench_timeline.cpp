// Frame times of the connection timeline while zooming and panning (not a
// test; tests/bench/bench_timeline.sh runs it). Analyses the capture with the
// real pipeline, loads the connection and direction with the most RTT
// samples, then renders the widget's scene into an image per step with the
// widget's own paint code, 200 steps of zoom in / pan / zoom out / pan.
//
// usage: bench_timeline CAPTURE [--steps N] [--size WxH] [--min-samples N] [--png FIRST_FRAME.png]
#include <time.h>
#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "session/ingest.h"
#include "store/store_reader.h"
#include "widgets/timeline_renderer.h"
#include "widgets/timeline_view.h"

using namespace rudp;
using namespace rudp::gui;

namespace {
struct Options {
  std::string capture;
  int steps = 200;
  QSize size{1600, 900};
  size_t minSamples = 100000;
  std::string png;  // where to save the first frame (the whole connection)
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--steps") {
      o.steps = std::stoi(next());
    } else if (a == "--size") {
      const std::string v = next();
      o.size = QSize(std::stoi(v.substr(0, v.find('x'))), std::stoi(v.substr(v.find('x') + 1)));
    } else if (a == "--min-samples") {
      o.minSamples = std::stoul(next());
    } else if (a == "--png") {
      o.png = next();
    } else {
      o.capture = a;
    }
  }
  return o;
}

// Step i of the plan: 12 zooms in around moving anchors, 12 pans right,
// 12 zooms out, 14 pans left; repeated.
void step(TimelineView& view, int i) {
  const int k = i % 50;
  const int64_t s = view.rangeStart(), e = view.rangeEnd(), span = e - s;
  if (k < 12) {
    const int64_t anchor = s + span * (3 + k % 5) / 10;
    view.setTimeRange(anchor - (anchor - s) / 2, anchor + (e - anchor) / 2);
  } else if (k < 24) {
    view.trigger(TimelineAction::PanRight);
  } else if (k < 36) {
    view.trigger(TimelineAction::ZoomOutX);
  } else {
    view.trigger(TimelineAction::PanLeft);
  }
}

// CPU time of this thread: what a frame costs, whatever else the machine runs.
double threadCpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

double percentile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(q * (v.size() - 1) + 0.5))];
}
}  // namespace

int run(int argc, char** argv);

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_timeline: %s\n", e.what());
    return 2;
  }
}

int run(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM", qgetenv("QT_QPA_PLATFORM").isEmpty() ? "offscreen" : qgetenv("QT_QPA_PLATFORM"));
  QApplication app(argc, argv);
  const Options o = parse(argc, argv);
  if (o.capture.empty()) {
    std::fprintf(stderr,
                 "usage: bench_timeline CAPTURE [--steps N] [--size WxH] [--min-samples N] [--png FILE]\n");
    return 2;
  }
  QTemporaryDir tmp;
  const std::string db = tmp.filePath(QStringLiteral("bench.sqlite")).toStdString();
  QElapsedTimer t;
  t.start();
  ingestCapture(o.capture, db, DissectorOptions{});
  const double ingestS = t.elapsed() / 1000.0;

  StoreReader reader(db);
  int64_t conn = 0;
  Direction dir = Direction::ClientToServer;
  uint64_t best = 0;
  for (const ConnectionRecord& r : reader.connectionRecords())
    for (Direction d : {Direction::ClientToServer, Direction::ServerToClient})
      if (r.metrics.dir[static_cast<size_t>(d)].rtt.samples > best) {
        best = r.metrics.dir[static_cast<size_t>(d)].rtt.samples;
        conn = r.summary.id;
        dir = d;
      }
  t.restart();
  auto data = std::make_shared<const TimelineData>(loadTimelineData(reader, conn));
  const double loadS = t.elapsed() / 1000.0;
  const DirectionTimeline& d = data->of(dir);
  std::printf(
      "capture: %s\ningest: %.2f s\nconnection %lld, %s: %zu RTT samples, %zu seqs sent, %zu acks, "
      "%zu retransmissions, %zu losses, %zu stalls\nload + pyramids: %.3f s\n",
      o.capture.c_str(), ingestS, static_cast<long long>(conn),
      dir == Direction::ClientToServer ? "client->server" : "server->client", d.rtt.size(), d.seqSent.size(),
      d.seqAcked.size(), d.retransmissions.size(), d.losses.size(), d.stalls.size(), loadS);
  if (d.rtt.size() < o.minSamples) {
    std::fprintf(stderr, "bench_timeline: only %zu RTT samples (want >= %zu)\n", d.rtt.size(), o.minSamples);
    return 1;
  }

  TimelineView view;
  // The frames are painted here, one at a time; the view's own background
  // render of each new range would compete with them for the two cores.
  view.setAsyncRendering(false);
  view.resize(o.size);
  view.setData(data);
  view.setDirection(dir);
  std::vector<double> ms, cpu;
  QImage frame(o.size, QImage::Format_ARGB32_Premultiplied);
  for (int i = 0; i < o.steps; ++i) {
    if (i > 0) step(view, i - 1);
    QElapsedTimer f;
    f.start();
    const double cpu0 = threadCpuMs();
    {
      QPainter p(&frame);
      TimelineRenderer::paint(p, view.scene(), o.size);
    }
    cpu.push_back(threadCpuMs() - cpu0);
    ms.push_back(f.nsecsElapsed() / 1e6);
    if (i == 0 && !o.png.empty()) frame.save(QString::fromStdString(o.png));
  }
  std::printf("frames: %d at %dx%d\n", o.steps, o.size.width(), o.size.height());
  auto report = [](const char* what, const std::vector<double>& v) {
    const double median = percentile(v, 0.5), worst = *std::max_element(v.begin(), v.end());
    std::printf("%s: median %.2f ms, p90 %.2f ms, worst %.2f ms; goal (median < 16, worst < 50): %s\n", what,
                median, percentile(v, 0.9), worst, median < 16 && worst < 50 ? "met" : "NOT met");
  };
  report("frame time (wall)", ms);
  report("frame time (thread CPU)", cpu);
  return 0;
}
