// Tools > Install Dissectors into Wireshark: the dialog shows the states the
// core reports, installs and uninstalls, and asks before overwriting a file
// rudpscope did not install. HOME is a temporary folder.
#include <QApplication>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>
#include <QTreeWidget>
#include <filesystem>
#include <fstream>

#include "../models/catch_qt.h"
#include "app_fixture.h"
#include "lua/dissector_files.h"
#include "wireshark/dissector_installer.h"
#include "wireshark/plugin_folder.h"
#include "wireshark_dialog.h"
#include "wireshark_gui_env.h"

using namespace rudp;
using namespace rudp::test;
namespace ws = rudp::wireshark;
using gui::WiresharkDialog;

namespace {

using States = std::vector<std::pair<std::string, std::string>>;

States statesOf(const std::vector<ws::DissectorFile>& files) {
  States states;
  for (const auto& f : files) states.emplace_back(f.name, ws::stateName(f.state));
  return states;
}

States coreStates() {
  const auto folder = ws::findLuaPluginFolder();
  return statesOf(ws::DissectorInstaller(defaultDissectorDir(), folder.path, folder.configPath).status());
}

States all(const char* state) {
  return {{"enet.lua", state},
          {"grudp.lua", state},
          {"kcp.lua", state},
          {"raknet.lua", state},
          {"udt.lua", state}};
}

void waitForStatus(WiresharkDialog& dialog, QSignalSpy& spy) {
  REQUIRE(spy.wait(30000));
  spy.clear();
  (void)dialog;
}

// Answers the next modal question with `button`.
void answerNextQuestion(QMessageBox::StandardButton button) {
  QTimer::singleShot(0, [button] {
    auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
    REQUIRE(box);
    box->button(button)->click();
  });
}

std::string readText(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), {}};
}

}  // namespace

TEST_CASE("the Wireshark dialog shows the core's states, installs and uninstalls") {
  TempDir home("ws-dialog-home");
  ScopedEnv homeEnv("HOME", QByteArray::fromStdString(home.path.string()));
  const std::string plugins = home / ".local/lib/wireshark/plugins";
  WiresharkDialog dialog;
  QSignalSpy shown(&dialog, &WiresharkDialog::statusShown);
  dialog.show();
  waitForStatus(dialog, shown);

  CHECK(statesOf(dialog.shownFiles()) == all("missing"));
  CHECK(coreStates() == all("missing"));
  CHECK(dialog.folderLabel()->text() == QString::fromStdString(plugins));
  const ws::LuaPluginFolder folder = ws::findLuaPluginFolder();
  CHECK(dialog.howLabel()->text() == QStringLiteral("reported by `tshark -G folders` (tshark %1)")
                                         .arg(QString::fromStdString(folder.version.text())));
  const auto* note = dialog.findChild<QLabel*>(QStringLiteral("wireshark.note"));
  CHECK(note->text().toStdString() == ws::superuserNote(folder.version, ws::runningAsRoot()));

  auto* install = dialog.findChild<QPushButton*>(QStringLiteral("wireshark.install"));
  auto* uninstall = dialog.findChild<QPushButton*>(QStringLiteral("wireshark.uninstall"));
  QTest::mouseClick(install, Qt::LeftButton);
  waitForStatus(dialog, shown);
  CHECK(statesOf(dialog.shownFiles()) == all("installed"));
  CHECK(coreStates() == all("installed"));
  const QString disabledProtos = QString::fromStdString(home / ".config/wireshark/disabled_protos");
  CHECK(dialog.resultLabel()->text() ==
        "enet.lua: written (was missing); grudp.lua: written (was missing); kcp.lua: written (was missing); "
        "raknet.lua: written (was missing); udt.lua: written (was missing); disabled_protos: Wireshark's "
        "built-in raknet: turned off (" +
            disabledProtos + "), ours decodes it; disabled_protos: Wireshark's built-in udt: turned off (" +
            disabledProtos + "), ours decodes it");
  CHECK_FALSE(install->isEnabled());  // nothing left to install
  dialog.grab().save(QString::fromStdString(artifactPath("wireshark_dialog.png")));

  QTest::mouseClick(uninstall, Qt::LeftButton);
  waitForStatus(dialog, shown);
  CHECK(statesOf(dialog.shownFiles()) == all("missing"));
  CHECK(dialog.resultLabel()->text() ==
        "disabled_protos: Wireshark's built-in raknet: back on; disabled_protos: Wireshark's built-in udt: "
        "back on; enet.lua: removed; grudp.lua: removed; kcp.lua: removed; raknet.lua: removed; udt.lua: "
        "removed");
  CHECK(!std::filesystem::exists(plugins + "/grudp.lua"));
}

TEST_CASE("the Wireshark dialog asks before overwriting a file rudpscope did not install") {
  TempDir home("ws-dialog-home");
  ScopedEnv homeEnv("HOME", QByteArray::fromStdString(home.path.string()));
  const std::string theirs = home / ".local/lib/wireshark/plugins/grudp.lua";
  std::filesystem::create_directories(std::filesystem::path(theirs).parent_path());
  std::ofstream(theirs) << "-- their grudp\n";

  WiresharkDialog dialog;
  QSignalSpy shown(&dialog, &WiresharkDialog::statusShown);
  dialog.show();
  waitForStatus(dialog, shown);
  const States withForeign = {{"enet.lua", "missing"},
                              {"grudp.lua", "foreign"},
                              {"kcp.lua", "missing"},
                              {"raknet.lua", "missing"},
                              {"udt.lua", "missing"}};
  CHECK(statesOf(dialog.shownFiles()) == withForeign);
  CHECK(coreStates() == withForeign);
  dialog.grab().save(QString::fromStdString(artifactPath("wireshark_dialog_foreign.png")));

  auto* install = dialog.findChild<QPushButton*>(QStringLiteral("wireshark.install"));
  answerNextQuestion(QMessageBox::No);
  QTest::mouseClick(install, Qt::LeftButton);
  CHECK(dialog.resultLabel()->text() == "Nothing installed: grudp.lua left as it is.");
  CHECK(readText(theirs) == "-- their grudp\n");
  CHECK(coreStates() == withForeign);

  answerNextQuestion(QMessageBox::Yes);
  QTest::mouseClick(install, Qt::LeftButton);
  waitForStatus(dialog, shown);
  CHECK(statesOf(dialog.shownFiles()) == all("installed"));
  CHECK(readText(theirs) == readText(defaultDissectorDir() + "/grudp.lua"));
}
