// Tools > Install Dissectors into Wireshark: where the user's personal Lua
// plugin folder is (and how it was found), the state of each of our
// dissectors there, and Install / Uninstall. Overwriting a file rudpscope did
// not install is asked first. The folder is looked up (tshark runs) on a
// worker thread; installing copies a few small files on the UI thread.
#pragma once
#include <QDialog>
#include <vector>

#include "jobs/job_runner.h"
#include "wireshark/dissector_installer.h"
#include "wireshark/plugin_folder.h"

class QLabel;
class QPushButton;
class QTreeWidget;

namespace rudp::gui {

class WiresharkDialog : public QDialog {
  Q_OBJECT
 public:
  // The folder, the dissectors' states, a note about root, or why not.
  struct Status {
    wireshark::LuaPluginFolder folder;
    std::string sourceFolder;
    std::vector<wireshark::DissectorFile> files;
    std::string note;
    std::string error;
  };

  explicit WiresharkDialog(QWidget* parent = nullptr);

  // Looks the folder and the states up again (off the UI thread).
  void refresh();
  void install();
  void uninstall();

  QLabel* folderLabel() const { return m_folder; }  // the plugin folder's path
  QLabel* howLabel() const { return m_how; }        // how it was found
  QLabel* resultLabel() const { return m_result; }
  // The states shown, by file name.
  std::vector<wireshark::DissectorFile> shownFiles() const;

 signals:
  // The states on screen are up to date.
  void statusShown();

 private:
  static Status lookUp();
  void showStatus(const Status& status);
  void setBusy(bool busy);
  bool confirmOverwrite(const QStringList& names);
  void report(const std::vector<wireshark::FileChange>& changes);

  JobRunner* m_lookUps;  // lookUp() off the UI thread
  JobTracker m_lookUp;
  Status m_status;
  QLabel* m_folder;
  QLabel* m_how;
  QLabel* m_sources;
  QTreeWidget* m_files;
  QLabel* m_note;
  QLabel* m_result;
  QPushButton* m_install;
  QPushButton* m_uninstall;
};

}  // namespace rudp::gui
