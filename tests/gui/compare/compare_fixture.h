// The capture set the Compare tests check: simulated GRUDP (grudp-sim's
// model, in process) at loss 1, 5 and 10 % with a minimum RTO of 100 and
// 300 ms, one capture per condition, the labels in the file names
// (grudp_loss5_rto300.pcap: stack=grudp loss=5 rto=300). It is compared once
// per process with the GUI's CompareJob, as the Compare page does.
#pragma once
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <string>
#include <vector>

#include "jobs/compare_job.h"

class QWidget;

namespace rudp::gui {
class ComparePage;
}

namespace rudp::test {

struct CompareSet {
  QTemporaryDir dir;
  std::vector<std::string> captures;  // as cmp::expandCaptureSet lists the folder
  gui::CompareOutcome outcome;        // the folder compared by a CompareJob
};

inline const std::vector<int> kLossPercents{1, 5, 10};
inline const std::vector<int> kRtoMinMs{100, 300};

// Simulated and compared on first use.
const CompareSet& compareSet();

// Writes grudp_loss<L>_rto<R>.pcap into `folder`; returns its path.
std::string simulateCapture(const QString& folder, int lossPercent, int rtoMinMs);

// Runs a CompareJob on `paths` and waits for its end (fails the test on a
// timeout or a failed job).
gui::CompareOutcome runCompareJob(const QStringList& paths, int timeoutMs = 300000);

// QSettings kept in a temporary folder for this process (the window reads them).
void useTemporarySettings();

// Starts `paths` on `page` and waits until it is shown (true) or not (false).
bool compareAndWait(gui::ComparePage& page, const QStringList& paths, int timeoutMs = 300000);

// Renders `w` to RUDPSCOPE_TEST_ARTIFACTS/<name>; returns the path ("" when not written).
QString savePng(QWidget& w, const std::string& name);

}  // namespace rudp::test
