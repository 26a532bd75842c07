#include "jobs/wireshark_launcher.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryFile>

#include "capture/frame_export.h"
#include "jobs/capture_session.h"
#include "lua/dissector_files.h"
#include "models/value_text.h"
#include "store/store_reader.h"
#include "wireshark/dissector_installer.h"
#include "wireshark/frame_selection.h"
#include "wireshark/launch_command.h"
#include "wireshark/plugin_folder.h"

namespace rudp::gui {

namespace ws = rudp::wireshark;

// What the worker hands back to the UI thread (a value).
struct WiresharkLauncher::Plan {
  QStringList arguments;  // after the program
  quint64 written = 0;
  QString pcapng;
  QString remarks;  // dissector caveat, root note; may be empty
  QString error;    // set when nothing can be started
};

namespace {

// A new, uniquely named file in the temp folder; Wireshark reads it after we
// are gone, so it is left there (the temp folder is the system's to clean).
QString newPcapngPath(const WiresharkRequest& request) {
  QTemporaryFile file(QDir::temp().filePath(QStringLiteral("rudpscope-%1-conn%2-XXXXXX.pcapng")
                                                .arg(QFileInfo(request.capture).completeBaseName())
                                                .arg(request.conn)));
  file.setAutoRemove(false);
  return file.open() ? file.fileName() : QString();
}

QString joined(const std::string& a, const std::string& b) {
  return QString::fromStdString(a.empty() || b.empty() ? a + b : a + "; " + b);
}

}  // namespace

WiresharkRequest WiresharkRequest::forConnection(const CaptureSession& session, qint64 conn, TimeRange range,
                                                 quint64 goToFrame) {
  WiresharkRequest request{session.capturePath(), session.dbPath(), conn, range, goToFrame, {}};
  const int64_t t0 = session.overview()->capture.first_ts_ns;
  const bool whole = range.from_ns == TimeRange{}.from_ns && range.to_ns == TimeRange{}.to_ns;
  request.what =
      whole ? WiresharkLauncher::tr("connection #%1").arg(conn)
            : WiresharkLauncher::tr("connection #%1 from %2 s to %3 s")
                  .arg(conn)
                  .arg(relativeSecondsText(range.from_ns, t0, 3), relativeSecondsText(range.to_ns, t0, 3));
  return request;
}

WiresharkLauncher::WiresharkLauncher(QObject* parent)
    : QObject(parent), m_runner(new JobRunner(1, QStringLiteral("rudp-wireshark"), this)) {}

WiresharkLauncher::~WiresharkLauncher() { m_runner->waitForDone(); }

void WiresharkLauncher::waitForDone() { m_runner->waitForDone(); }

void WiresharkLauncher::open(const WiresharkRequest& request) {
  const QString program = QStandardPaths::findExecutable(QStringLiteral("wireshark"));
  if (program.isEmpty()) {
    emit message(
        MessageKind::Error,
        tr("Wireshark is not installed: no “wireshark” program on PATH. Install it (Debian: apt install "
           "wireshark) to open packets in it."));
    return;
  }
  const QString pcapng = newPcapngPath(request);
  if (pcapng.isEmpty()) {
    emit message(MessageKind::Error,
                 tr("Cannot open %1 in Wireshark: no temporary file can be created in %2.")
                     .arg(request.what, QDir::tempPath()));
    return;
  }
  m_runner->runEach([request, program, pcapng] { return prepare(request, program, pcapng); },
                    [this, program, request](const Plan& plan) { start(program, request, plan); },
                    [this, program, request](const QString& error) {
                      Plan failed;
                      failed.error = error;
                      start(program, request, failed);
                    });
}

WiresharkLauncher::Plan WiresharkLauncher::prepare(const WiresharkRequest& request, const QString& program,
                                                   const QString& pcapng) {
  Plan plan;
  plan.pcapng = pcapng;
  try {
    StoreReader reader(request.database.toStdString());
    const auto frames = ws::connectionFrames(reader, request.conn, request.range);
    if (frames.empty()) {
      QFile::remove(pcapng);
      plan.error = QObject::tr("%1 has no packets in that time range").arg(request.what);
      return plan;
    }
    plan.written = exportFrames(request.capture.toStdString(), frames, pcapng.toStdString()).written;
    const auto folder = ws::findLuaPluginFolder();
    const ws::DissectorInstaller installer(defaultDissectorDir(), folder.path, folder.configPath);
    const auto installed = installer.status();
    ws::LaunchOptions options;
    options.program = program.toStdString();
    options.capture = pcapng.toStdString();
    options.sourceFolder = installer.sourceFolder();
    options.goToFrame = ws::renumbered(frames, request.goToFrame);
    options.disableProtocols = installer.replacedProtocols();
    const auto argv = ws::launchCommand(options, installed);
    for (size_t i = 1; i < argv.size(); ++i) plan.arguments << QString::fromStdString(argv[i]);
    const bool root = ws::runningAsRoot();
    plan.remarks =
        joined(ws::launchCaveat(installed),
               ws::superuserBlocksLua(folder.version, root) ? ws::superuserNote(folder.version, root) : "");
  } catch (const std::exception& e) {
    QFile::remove(pcapng);
    plan.error = QString::fromStdString(e.what());
  }
  return plan;
}

void WiresharkLauncher::start(const QString& program, const WiresharkRequest& request, const Plan& plan) {
  if (!plan.error.isEmpty()) {
    emit message(MessageKind::Error, tr("Cannot open %1 in Wireshark: %2.").arg(request.what, plan.error));
    return;
  }
  if (!QProcess::startDetached(program, plan.arguments)) {
    emit message(MessageKind::Error, tr("Cannot start %1; the packets are in %2.").arg(program, plan.pcapng));
    return;
  }
  emit launched(program, plan.arguments);
  QString text = tr("Wireshark opens %L1 %2 of %3 (%4).")
                     .arg(plan.written)
                     .arg(plan.written == 1 ? tr("packet") : tr("packets"), request.what, plan.pcapng);
  if (!plan.remarks.isEmpty()) text += QLatin1Char(' ') + plan.remarks + QLatin1Char('.');
  emit message(plan.remarks.isEmpty() ? MessageKind::Information : MessageKind::Warning, text);
}

}  // namespace rudp::gui
