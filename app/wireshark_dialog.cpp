#include "wireshark_dialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "lua/dissector_files.h"

namespace rudp::gui {

namespace ws = rudp::wireshark;

namespace {

enum Column { NameColumn, StateColumn, MeaningColumn };

QString qs(const std::string& s) { return QString::fromStdString(s); }

QLabel* wrappedLabel(QWidget* parent, const QString& objectName, bool wrap = true) {
  auto* label = new QLabel(parent);
  label->setObjectName(objectName);
  label->setWordWrap(wrap);
  label->setTextFormat(Qt::PlainText);
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  return label;
}

}  // namespace

WiresharkDialog::WiresharkDialog(QWidget* parent)
    : QDialog(parent),
      m_lookUps(new JobRunner(1, QStringLiteral("rudp-wireshark-status"), this)),
      m_folder(wrappedLabel(this, QStringLiteral("wireshark.folder"), false)),
      m_how(wrappedLabel(this, QStringLiteral("wireshark.how"))),
      m_sources(wrappedLabel(this, QStringLiteral("wireshark.sources"), false)),
      m_files(new QTreeWidget(this)),
      m_note(wrappedLabel(this, QStringLiteral("wireshark.note"))),
      m_result(wrappedLabel(this, QStringLiteral("wireshark.result"))),
      m_install(new QPushButton(tr("&Install"), this)),
      m_uninstall(new QPushButton(tr("&Uninstall"), this)) {
  setWindowTitle(tr("Install Dissectors into Wireshark"));
  m_files->setObjectName(QStringLiteral("wireshark.files"));
  m_files->setHeaderLabels({tr("Dissector"), tr("State"), tr("Meaning")});
  m_files->setRootIsDecorated(false);
  m_files->setSelectionMode(QAbstractItemView::NoSelection);
  m_files->header()->setStretchLastSection(true);
  m_install->setObjectName(QStringLiteral("wireshark.install"));
  m_install->setToolTip(
      tr("Copy rudpscope's dissectors into the folder; Wireshark loads them when it starts."));
  m_uninstall->setObjectName(QStringLiteral("wireshark.uninstall"));
  m_uninstall->setToolTip(tr("Remove the dissectors rudpscope installed there, and nothing else."));

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  buttons->addButton(m_install, QDialogButtonBox::ActionRole);
  buttons->addButton(m_uninstall, QDialogButtonBox::ActionRole);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(m_install, &QPushButton::clicked, this, &WiresharkDialog::install);
  connect(m_uninstall, &QPushButton::clicked, this, &WiresharkDialog::uninstall);

  auto* places = new QFormLayout;
  places->addRow(tr("Plugin folder:"), m_folder);
  places->addRow(tr("Found:"), m_how);
  places->addRow(tr("Dissectors from:"), m_sources);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(places);
  layout->addWidget(m_files, 1);
  layout->addWidget(m_note);
  layout->addWidget(m_result);
  layout->addWidget(buttons);
  resize(720, 320);
  refresh();
}

WiresharkDialog::Status WiresharkDialog::lookUp() {
  Status status;
  try {
    status.folder = ws::findLuaPluginFolder();
    const ws::DissectorInstaller installer(defaultDissectorDir(), status.folder.path,
                                           status.folder.configPath);
    status.sourceFolder = installer.sourceFolder();
    status.files = installer.status();
    status.note = ws::superuserNote(status.folder.version, ws::runningAsRoot());
  } catch (const std::exception& e) { status.error = e.what(); }
  return status;
}

void WiresharkDialog::refresh() {
  if (m_lookUp.isRunning()) return;
  setBusy(true);
  m_how->setText(tr("looking for Wireshark's personal Lua plugins folder…"));
  m_lookUps->run(
      m_lookUp, &WiresharkDialog::lookUp, [this](const Status& status) { showStatus(status); },
      [this](const QString& error) {
        Status status;
        status.error = error.toStdString();
        showStatus(status);
      });
}

void WiresharkDialog::setBusy(bool busy) {
  m_install->setEnabled(!busy);
  m_uninstall->setEnabled(!busy);
}

void WiresharkDialog::showStatus(const Status& status) {
  m_status = status;
  const QString version =
      status.folder.version.known() ? tr(" (tshark %1)").arg(qs(status.folder.version.text())) : QString();
  m_folder->setText(qs(status.folder.path));
  m_how->setText(qs(status.folder.how) + version);
  m_sources->setText(qs(status.sourceFolder));
  m_files->clear();
  for (const auto& f : status.files) {
    auto* item = new QTreeWidgetItem(m_files, {qs(f.name), QString::fromLatin1(ws::stateName(f.state)),
                                               QString::fromLatin1(ws::stateMeaning(f.state))});
    item->setToolTip(MeaningColumn, item->text(MeaningColumn));
  }
  m_files->resizeColumnToContents(NameColumn);
  m_files->resizeColumnToContents(StateColumn);
  const bool blocked = ws::superuserBlocksLua(status.folder.version, ws::runningAsRoot());
  m_note->setText(blocked ? tr("Warning: %1").arg(qs(status.note)) : qs(status.note));
  m_note->setVisible(!status.note.empty());
  if (!status.error.empty()) m_result->setText(tr("Cannot tell: %1").arg(qs(status.error)));
  setBusy(false);
  m_install->setEnabled(status.error.empty() && !ws::DissectorInstaller::allInstalled(status.files));
  m_uninstall->setEnabled(status.error.empty());
  emit statusShown();
}

std::vector<ws::DissectorFile> WiresharkDialog::shownFiles() const {
  std::vector<ws::DissectorFile> files;
  for (int i = 0; i < m_files->topLevelItemCount(); ++i) {
    const QTreeWidgetItem* item = m_files->topLevelItem(i);
    for (auto state : {ws::FileState::Installed, ws::FileState::Outdated, ws::FileState::Missing,
                       ws::FileState::Foreign, ws::FileState::Modified})
      if (item->text(StateColumn) == QLatin1String(ws::stateName(state)))
        files.push_back({item->text(NameColumn).toStdString(), state});
  }
  return files;
}

bool WiresharkDialog::confirmOverwrite(const QStringList& names) {
  const auto answer = QMessageBox::question(
      this, tr("Overwrite Files?"),
      tr("The plugin folder already has %1, which rudpscope did not install (or which was edited there). "
         "Overwrite with rudpscope's dissectors?")
          .arg(names.join(QStringLiteral(", "))),
      QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
  return answer == QMessageBox::Yes;
}

void WiresharkDialog::install() {
  QStringList others;
  for (const auto& f : m_status.files)
    if (f.state == ws::FileState::Foreign || f.state == ws::FileState::Modified) others << qs(f.name);
  if (!others.isEmpty() && !confirmOverwrite(others)) {
    m_result->setText(tr("Nothing installed: %1 left as it is.").arg(others.join(QStringLiteral(", "))));
    return;
  }
  try {
    report(ws::DissectorInstaller(m_status.sourceFolder, m_status.folder.path, m_status.folder.configPath)
               .install(!others.isEmpty()));
  } catch (const std::exception& e) { m_result->setText(tr("Cannot install: %1").arg(qs(e.what()))); }
  refresh();
}

void WiresharkDialog::uninstall() {
  try {
    report(ws::DissectorInstaller(m_status.sourceFolder, m_status.folder.path, m_status.folder.configPath)
               .uninstall());
  } catch (const std::exception& e) { m_result->setText(tr("Cannot uninstall: %1").arg(qs(e.what()))); }
  refresh();
}

void WiresharkDialog::report(const std::vector<ws::FileChange>& changes) {
  QStringList lines;
  for (const auto& c : changes) lines << tr("%1: %2").arg(qs(c.name), qs(c.what));
  m_result->setText(lines.isEmpty() ? tr("Nothing to do.") : lines.join(QStringLiteral("; ")));
}

}  // namespace rudp::gui
