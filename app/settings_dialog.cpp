#include "settings_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalBlocker>
#include <QTableWidget>
#include <QVBoxLayout>

#include "analyzers/genre.h"

namespace rudp::gui {

namespace {

QDoubleSpinBox* msSpinBox(QWidget* parent, double max) {
  auto* box = new QDoubleSpinBox(parent);
  box->setRange(1, max);
  box->setDecimals(0);
  box->setSuffix(QStringLiteral(" ms"));
  box->setAccelerated(true);
  return box;
}

double presetMs(const GenrePreset& p) { return rudp::ana::genreStallMs(p.key.toStdString()); }

}  // namespace

SettingsDialog::SettingsDialog(const AnalysisPreferences& prefs, QWidget* parent)
    : QDialog(parent), m_genre(new QComboBox(this)), m_stall(msSpinBox(this, 60000)) {
  setWindowTitle(tr("Settings"));
  setObjectName(QStringLiteral("settingsDialog"));
  for (int i = 0; i < 3; ++i) m_limits[i] = msSpinBox(this, 60000);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* note = new QLabel(tr("Changing these analyses the open capture again."), this);
  note->setForegroundRole(QPalette::PlaceholderText);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(makeStallGroup());
  layout->addWidget(makeRttGroup());
  layout->addWidget(makeDissectorGroup(), 1);
  layout->addWidget(makeQuicGroup());
  layout->addWidget(note);
  layout->addWidget(buttons);
  load(prefs);
  resize(560, 680);
}

QWidget* SettingsDialog::makeStallGroup() {
  auto* group = new QGroupBox(tr("Stalls"), this);
  m_genre->setObjectName(QStringLiteral("settings.genre"));
  m_genre->addItem(tr("Custom"), QString());
  for (const GenrePreset& p : genrePresets())
    m_genre->addItem(tr("%1 (%2 ms)").arg(p.label).arg(presetMs(p)), p.key);
  m_genre->setToolTip(tr("Sets the stall threshold and the three RTT limits of the genre"));
  m_stall->setObjectName(QStringLiteral("settings.stall"));
  m_stall->setToolTip(tr("Data waiting for its acknowledgement longer than this is a stall"));
  connect(m_genre, &QComboBox::activated, this, &SettingsDialog::presetChosen);
  connect(m_stall, &QDoubleSpinBox::valueChanged, this, &SettingsDialog::thresholdEdited);
  auto* form = new QFormLayout(group);
  form->addRow(tr("Game genre:"), m_genre);
  form->addRow(tr("Stall threshold:"), m_stall);
  return group;
}

QWidget* SettingsDialog::makeRttGroup() {
  auto* group = new QGroupBox(tr("RTT limit lines"), this);
  auto* row = new QHBoxLayout;
  for (int i = 0; i < 3; ++i) {
    m_limits[i]->setObjectName(QStringLiteral("settings.rttLimit%1").arg(i));
    row->addWidget(m_limits[i]);
  }
  auto* form = new QFormLayout(group);
  form->addRow(tr("Share of RTT samples above:"), row);
  return group;
}

QWidget* SettingsDialog::makeDissectorGroup() {
  auto* group = new QGroupBox(tr("Dissectors"), this);
  m_prefs = new QTableWidget(0, 2, group);
  m_prefs->setObjectName(QStringLiteral("settings.prefs"));
  m_prefs->setHorizontalHeaderLabels({tr("Preference (-o name)"), tr("Value")});
  m_prefs->horizontalHeader()->setStretchLastSection(true);
  m_prefs->verticalHeader()->hide();
  auto* addPref = new QPushButton(tr("Add"), group);
  auto* removePref = new QPushButton(tr("Remove"), group);
  connect(addPref, &QPushButton::clicked, this, [this] {
    const int row = m_prefs->rowCount();
    m_prefs->insertRow(row);
    m_prefs->setItem(row, 0, new QTableWidgetItem);
    m_prefs->editItem(m_prefs->item(row, 0));
  });
  connect(removePref, &QPushButton::clicked, this, [this] { m_prefs->removeRow(m_prefs->currentRow()); });

  m_scripts = new QListWidget(group);
  m_scripts->setObjectName(QStringLiteral("settings.scripts"));
  auto* addScript = new QPushButton(tr("Add…"), group);
  auto* removeScript = new QPushButton(tr("Remove"), group);
  connect(addScript, &QPushButton::clicked, this, &SettingsDialog::addScript);
  connect(removeScript, &QPushButton::clicked, this, [this] { delete m_scripts->currentItem(); });

  auto* layout = new QVBoxLayout(group);
  layout->addWidget(new QLabel(tr("Preferences:"), group));
  layout->addWidget(m_prefs);
  auto* prefButtons = new QHBoxLayout;
  prefButtons->addStretch();
  prefButtons->addWidget(addPref);
  prefButtons->addWidget(removePref);
  layout->addLayout(prefButtons);
  layout->addWidget(new QLabel(tr("Extra Lua scripts (loaded after the shipped dissectors):"), group));
  layout->addWidget(m_scripts);
  auto* scriptButtons = new QHBoxLayout;
  scriptButtons->addStretch();
  scriptButtons->addWidget(addScript);
  scriptButtons->addWidget(removeScript);
  layout->addLayout(scriptButtons);
  return group;
}

QWidget* SettingsDialog::makeQuicGroup() {
  auto* group = new QGroupBox(tr("QUIC"), this);
  m_keylog = new QLineEdit(group);
  m_keylog->setObjectName(QStringLiteral("settings.keylog"));
  m_keylog->setPlaceholderText(tr("none: a pcapng's own secrets, else only Initial packets"));
  m_keylog->setClearButtonEnabled(true);
  m_keylog->setToolTip(
      tr("The endpoints' TLS key log (SSLKEYLOGFILE, Go's KeyLogWriter), as Wireshark's"
         " tls.keylog_file. A pcapng's own decryption secrets (editcap --inject-secrets)"
         " are read without it."));
  auto* browse = new QPushButton(tr("Browse…"), group);
  connect(browse, &QPushButton::clicked, this, [this] {
    const QString file = QFileDialog::getOpenFileName(this, tr("TLS Key Log"), m_keylog->text(),
                                                      tr("Key logs (*.keylog *.log *.txt);;All files (*)"));
    if (!file.isEmpty()) m_keylog->setText(file);
  });
  auto* row = new QHBoxLayout;
  row->addWidget(m_keylog, 1);
  row->addWidget(browse);
  auto* form = new QFormLayout(group);
  form->addRow(tr("TLS key log:"), row);
  return group;
}

void SettingsDialog::presetChosen(int index) {
  const QString key = m_genre->itemData(index).toString();
  if (key.isEmpty()) return;
  const QSignalBlocker block(m_stall);
  m_stall->setValue(rudp::ana::genreStallMs(key.toStdString()));
  if (const auto limits = rudp::ana::genreRttLimitsMs(key.toStdString()))
    for (int i = 0; i < 3; ++i) m_limits[i]->setValue((*limits)[size_t(i)]);
}

// A threshold typed by hand is no longer the preset's.
void SettingsDialog::thresholdEdited(double ms) {
  const QString key = m_genre->currentData().toString();
  if (!key.isEmpty() && rudp::ana::genreStallMs(key.toStdString()) != ms) m_genre->setCurrentIndex(0);
}

void SettingsDialog::addScript() {
  const QStringList files = QFileDialog::getOpenFileNames(this, tr("Add Lua Scripts"), QString(),
                                                          tr("Lua scripts (*.lua);;All files (*)"));
  for (const QString& f : files) m_scripts->addItem(f);
}

void SettingsDialog::load(const AnalysisPreferences& prefs) {
  const QSignalBlocker block(m_stall);
  m_stall->setValue(prefs.stall_ms);
  const int genre = m_genre->findData(prefs.genre);
  m_genre->setCurrentIndex(genre < 0 ? 0 : genre);
  for (int i = 0; i < 3; ++i) m_limits[i]->setValue(prefs.rtt_limits_ms[size_t(i)]);
  m_prefs->setRowCount(0);
  for (const auto& [name, value] : prefs.dissector_prefs) {
    const int row = m_prefs->rowCount();
    m_prefs->insertRow(row);
    m_prefs->setItem(row, 0, new QTableWidgetItem(name));
    m_prefs->setItem(row, 1, new QTableWidgetItem(value));
  }
  m_scripts->clear();
  m_scripts->addItems(prefs.extra_scripts);
  m_keylog->setText(prefs.keylog_file);
}

AnalysisPreferences SettingsDialog::preferences() const {
  AnalysisPreferences p;
  p.genre = m_genre->currentData().toString();
  p.stall_ms = m_stall->value();
  for (int i = 0; i < 3; ++i) p.rtt_limits_ms[size_t(i)] = m_limits[i]->value();
  for (int row = 0; row < m_prefs->rowCount(); ++row) {
    const QTableWidgetItem* name = m_prefs->item(row, 0);
    const QTableWidgetItem* value = m_prefs->item(row, 1);
    if (name && !name->text().trimmed().isEmpty())
      p.dissector_prefs.append({name->text().trimmed(), value ? value->text() : QString()});
  }
  for (int i = 0; i < m_scripts->count(); ++i) p.extra_scripts << m_scripts->item(i)->text();
  p.keylog_file = m_keylog->text().trimmed();
  return p;
}

}  // namespace rudp::gui
