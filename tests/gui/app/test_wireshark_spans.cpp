// "Open in Wireshark" from the context menu of the Summary page's problems
// and of the Statistics page's stall list, opened by a right click sent
// through the window (as the platform delivers it): a fake `wireshark` first
// on PATH records its arguments, and the pcapng it is given holds exactly the
// connection's frames from a second before the stall to a second after it,
// as tshark filters them from the sample, the stall's first packet selected.
#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QMenu>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QTreeView>
#include <QWindow>
#include <filesystem>

#include "../models/catch_qt.h"
#include "app_fixture.h"
#include "jobs/capture_session.h"
#include "jobs/wireshark_launcher.h"
#include "main_window.h"
#include "models/stalls_model.h"
#include "pages/statistics_page.h"
#include "pages/summary_page.h"
#include "pages/timeline_page.h"
#include "store/store_reader.h"
#include "widgets/message_banner.h"
#include "wireshark/frame_selection.h"
#include "wireshark_gui_env.h"

using namespace rudp;
using namespace rudp::test;
using gui::MainWindow;
using gui::WiresharkLauncher;

namespace {

constexpr int64_t kSecond = 1'000'000'000;

struct Fixture {
  TempDir dir{"ws-span"}, home{"ws-span-home"}, bin{"ws-span-bin"};
  ScopedEnv homeEnv{"HOME", QByteArray::fromStdString(home.path.string())};
  ScopedEnv pathEnv{"PATH", pathWith(bin)};
  std::string argsFile = dir / "wireshark-args.txt";
  std::string capture = copySample(dir);
  MainWindow window;

  Fixture() {
    useTemporarySettings();
    writeFakeWireshark(bin, argsFile);
    window.resize(1200, 800);
    window.show();
    REQUIRE(QTest::qWaitForWindowExposed(&window));
    REQUIRE(openAndWait(window, QString::fromStdString(capture)));
  }

  const ConnectionSummary& connection(int64_t id) const {
    for (const ConnectionRecord& c : window.session().overview()->connections)
      if (c.summary.id == id) return c.summary;
    FAIL("no connection " << id);
    throw std::logic_error("unreachable");
  }
  int64_t captureStart() const { return window.session().overview()->capture.first_ts_ns; }
};

// A right button press on `index` sent to the window, as the platform sends
// it: the view's context menu opens (on the press, as on X11).
QMenu* rightClick(QAbstractItemView* view, const QModelIndex& index) {
  const QPoint at = view->viewport()->mapTo(view->window(), view->visualRect(index).center());
  QTest::mousePress(view->window()->windowHandle(), Qt::RightButton, Qt::NoModifier, at);
  auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
  if (menu) QTest::mouseRelease(view->window()->windowHandle(), Qt::RightButton, Qt::NoModifier, at);
  return menu;
}

void saveMenu(QMenu* menu, const std::string& name) {
  CHECK(menu->grab().save(QString::fromStdString(artifactPath(name))));
}

// Seconds since the capture's first frame, for frame.time_relative.
std::string relative(int64_t ns, int64_t start) {
  return QString::number(double(ns - start) / 1e9, 'f', 9).toStdString();
}

// The frames tshark shows of `conn` within [from_ns, to_ns).
std::vector<std::string> tsharkSpan(const Fixture& f, const ConnectionSummary& conn, int64_t from_ns,
                                    int64_t to_ns) {
  const std::string filter = addressFilter(conn) +
                             " && frame.time_relative >= " + relative(from_ns, f.captureStart()) +
                             " && frame.time_relative < " + relative(to_ns, f.captureStart());
  return tsharkFields(f.capture, frameFacts(), filter);
}

// Triggers `action`, then checks what wireshark was given: the connection's
// frames of [from_ns, to_ns) with `frame` selected, and the window's message.
void checkLaunch(Fixture& f, QAction* action, const ConnectionSummary& conn, int64_t from_ns, int64_t to_ns,
                 uint64_t frame) {
  QSignalSpy launched(f.window.wiresharkLauncher(), &WiresharkLauncher::launched);
  action->trigger();
  REQUIRE(launched.wait(60000));
  const QStringList args = launched[0][1].toStringList();
  REQUIRE(args.size() == 18);  // expectedArguments() and -g N
  std::vector<uint64_t> frames;
  {
    StoreReader reader(f.window.session().dbPath().toStdString());
    frames = wireshark::connectionFrames(reader, conn.id, {from_ns, to_ns});
  }
  const uint64_t position = wireshark::renumbered(frames, frame);
  REQUIRE(position != 0);
  CHECK(args == expectedArguments(args[1]) + QStringList{"-g", QString::number(position)});
  REQUIRE(QTest::qWaitFor([&] { return !recordedArguments(f.argsFile).isEmpty(); }, 10000));
  CHECK(recordedArguments(f.argsFile) == args);

  const auto written = tsharkFields(args[1].toStdString(), frameFacts());
  const auto expected = tsharkSpan(f, conn, from_ns, to_ns);
  CHECK(written.size() == frames.size());
  CHECK(written.size() < packetCount(conn));  // a part of the connection, not all of it
  CHECK(written == expected);
  CHECK(written.at(position - 1) == tsharkFields(f.capture, frameFacts()).at(frame - 1));
  const auto seconds = [&](int64_t ns) {
    return QString::number(double(ns - f.captureStart()) / 1e9, 'f', 3);
  };
  CHECK(f.window.banner()->text() ==
        QStringLiteral("Wireshark opens %1 packets of connection #%2 from %3 s to %4 s (%5).")
            .arg(QLocale().toString(qulonglong(frames.size())))
            .arg(conn.id)
            .arg(seconds(from_ns), seconds(to_ns), args[1]));
  std::filesystem::remove(args[1].toStdString());
}

}  // namespace

TEST_CASE("Open in Wireshark on a Summary problem opens the stall's packets with a second each side") {
  Fixture f;
  const auto& problems = f.window.session().overview()->problems;
  const auto stall = std::find_if(problems.begin(), problems.end(),
                                  [](const Problem& p) { return p.kind == ProblemKind::Stall; });
  REQUIRE(stall != problems.end());
  REQUIRE(stall->conn != 0);
  REQUIRE(stall->frame != 0);
  const int row = int(stall - problems.begin());

  QTreeView* view = f.window.summaryPage()->problemsView();
  QMenu* menu = rightClick(view, view->model()->index(row, 0));
  REQUIRE(menu);
  CHECK(f.window.resultPages()->currentWidget() == f.window.summaryPage());  // no jump to the timeline
  auto* action = menu->findChild<QAction*>(QStringLiteral("summary.openInWireshark"));
  REQUIRE(action);
  CHECK(action->isEnabled());
  saveMenu(menu, "app-summary-problem-menu.png");
  checkLaunch(f, action, f.connection(stall->conn), stall->start_ns - kSecond, stall->end_ns + kSecond,
              stall->frame);
  menu->close();
}

TEST_CASE("Open in Wireshark on a Statistics stall opens its packets with a second each side") {
  Fixture f;
  const auto& problems = f.window.session().overview()->problems;
  const auto stall = std::find_if(problems.begin(), problems.end(),
                                  [](const Problem& p) { return p.kind == ProblemKind::Stall; });
  REQUIRE(stall != problems.end());
  f.window.timelinePage()->showConnection(stall->conn);
  f.window.showPage(MainWindow::StatisticsIndex);
  gui::StatisticsPage* page = f.window.statisticsPage();
  REQUIRE(QTest::qWaitFor([&] { return page->data().conn == stall->conn; }, 20000));

  QTableView* table = page->stallTable();
  int row = -1;
  for (int r = 0; r < table->model()->rowCount(); ++r) {
    const auto& s = page->stallsModel()->stall(r).stall;
    if (s.start_ns == stall->start_ns && s.dir == stall->dir) row = r;
  }
  REQUIRE(row >= 0);
  const QModelIndex index = table->model()->index(row, 0);  // sorted by start: the model's order
  const ana::StallEvent s = page->stallsModel()->stall(row).stall;
  QMenu* menu = rightClick(table, index);
  REQUIRE(menu);
  CHECK(f.window.resultPages()->currentWidget() == page);  // the right click did not jump to the timeline
  auto* action = menu->findChild<QAction*>(QStringLiteral("statistics.openInWireshark"));
  REQUIRE(action);
  saveMenu(menu, "app-statistics-stall-menu.png");
  CHECK(f.window.grab().save(QString::fromStdString(artifactPath("app-statistics-stall-selected.png"))));
  checkLaunch(f, action, f.connection(stall->conn), s.start_ns - kSecond, s.end_ns + kSecond, s.first_frame);
  menu->close();
}
