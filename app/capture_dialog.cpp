#include "capture_dialog.h"

#include <QCheckBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "capture/capture_filter.h"
#include "capture/capture_interfaces.h"

namespace rudp::gui {

namespace {

const QString kInterfaceKey = QStringLiteral("capture/interface");
const QString kFilterKey = QStringLiteral("capture/filter");
const QString kFolderKey = QStringLiteral("capture/folder");
// libpcap's link types for compiling a filter before the interface is open:
// Linux's "any" is cooked (DLT_LINUX_SLL), the rest Ethernet (loopback too).
constexpr int kDltEthernet = 1, kDltLinuxCooked = 113;

QString stateText(const rudp::CaptureInterface& i) {
  QStringList s;
  s << (i.up ? QObject::tr("up") : QObject::tr("down"));
  if (i.running) s << QObject::tr("running");
  if (i.loopback) s << QObject::tr("loopback");
  if (i.wireless) s << QObject::tr("wireless");
  return s.join(QStringLiteral(", "));
}

QString defaultFolder() {
  QString saved = QSettings().value(kFolderKey).toString();
  if (!saved.isEmpty() && QFileInfo(saved).isDir()) return saved;
  const QString docs = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
  return QFileInfo(docs).isDir() ? docs : QDir::homePath();
}

// Wireshark's colours for a filter bar: green valid, red invalid.
void colourFilter(QLineEdit* edit, bool valid) {
  edit->setStyleSheet(valid ? QStringLiteral("QLineEdit { background: #afffaf; color: black; }")
                            : QStringLiteral("QLineEdit { background: #ffafaf; color: black; }"));
}

}  // namespace

QString defaultCaptureFile(const QString& folder, const QString& iface) {
  const QString stamp = QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
  return QDir(folder).filePath(QStringLiteral("capture-%1-%2.pcapng").arg(iface, stamp));
}

CaptureDialog::CaptureDialog(QWidget* parent)
    : QDialog(parent),
      m_interfaces(new QTreeWidget(this)),
      m_interfaceError(new QLabel(this)),
      m_filter(new QLineEdit(this)),
      m_filterMessage(new QLabel(this)),
      m_file(new QLineEdit(this)),
      m_duration(new QDoubleSpinBox(this)),
      m_snaplen(new QSpinBox(this)),
      m_promiscuous(new QCheckBox(tr("Promiscuous mode"), this)),
      m_buffer(new QSpinBox(this)),
      m_ring(new QCheckBox(tr("Ring buffer"), this)),
      m_ringFiles(new QSpinBox(this)),
      m_ringMegabytes(new QSpinBox(this)) {
  setWindowTitle(tr("Start Capture"));
  setObjectName(QStringLiteral("captureDialog"));
  QSettings settings;
  m_filter->setObjectName(QStringLiteral("capture.filter"));
  m_filter->setPlaceholderText(tr("BPF capture filter (empty: everything)"));
  m_filter->setText(settings.value(kFilterKey, QStringLiteral("udp or tcp")).toString());
  m_filterMessage->setObjectName(QStringLiteral("capture.filterMessage"));
  m_filterMessage->setWordWrap(true);
  m_file->setObjectName(QStringLiteral("capture.file"));
  auto* browseButton = new QPushButton(tr("Browse…"), this);
  connect(browseButton, &QPushButton::clicked, this, &CaptureDialog::browse);
  connect(m_file, &QLineEdit::textEdited, this, [this] {
    m_fileEdited = true;
    updateStart();
  });
  m_duration->setObjectName(QStringLiteral("capture.duration"));
  m_duration->setRange(0, 7 * 24 * 3600);
  m_duration->setDecimals(1);
  m_duration->setSuffix(tr(" s"));
  m_duration->setSpecialValueText(tr("until stopped"));

  auto* fileRow = new QHBoxLayout;
  fileRow->addWidget(m_file, 1);
  fileRow->addWidget(browseButton);
  auto* form = new QFormLayout;
  form->addRow(tr("Capture &filter:"), m_filter);
  form->addRow(QString(), m_filterMessage);
  // A row of several widgets has no buddy of its own: the label needs one for its Alt+W.
  auto* fileLabel = new QLabel(tr("&Write to:"), this);
  fileLabel->setBuddy(m_file);
  form->addRow(fileLabel, fileRow);
  form->addRow(tr("&Duration:"), m_duration);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
  m_start = buttons->addButton(tr("&Start"), QDialogButtonBox::AcceptRole);
  m_start->setObjectName(QStringLiteral("capture.start"));
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(makeInterfaceList(), 1);
  layout->addLayout(form);
  layout->addWidget(makeMoreOptions());
  layout->addWidget(buttons);
  resize(720, 520);

  connect(m_filter, &QLineEdit::textChanged, this, &CaptureDialog::checkFilter);
  fillInterfaces();
  selectInterface(settings.value(kInterfaceKey).toString());
  checkFilter();
}

QWidget* CaptureDialog::makeInterfaceList() {
  auto* box = new QWidget(this);
  m_interfaces->setObjectName(QStringLiteral("capture.interfaces"));
  m_interfaces->setHeaderLabels({tr("Interface"), tr("Addresses"), tr("State")});
  m_interfaces->setRootIsDecorated(false);
  m_interfaces->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
  connect(m_interfaces, &QTreeWidget::currentItemChanged, this, &CaptureDialog::interfaceChanged);
  connect(m_interfaces, &QTreeWidget::itemDoubleClicked, this, &CaptureDialog::accept);
  m_interfaceError->setObjectName(QStringLiteral("capture.interfaceError"));
  m_interfaceError->setWordWrap(true);
  m_interfaceError->hide();
  auto* layout = new QVBoxLayout(box);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* label = new QLabel(tr("&Interface:"), box);
  label->setBuddy(m_interfaces);
  layout->addWidget(label);
  layout->addWidget(m_interfaces, 1);
  layout->addWidget(m_interfaceError);
  return box;
}

// Keep the newest N files of M MB, each with its database (as --ring N:MB).
QWidget* CaptureDialog::makeRingOptions(QWidget* parent) {
  auto* row = new QWidget(parent);
  m_ring->setObjectName(QStringLiteral("capture.ring"));
  m_ring->setToolTip(
      tr("Go on in a new file when the file reaches the size, keeping the newest files; "
         "each file gets its own database. Stop opens the newest."));
  m_ringFiles->setObjectName(QStringLiteral("capture.ringFiles"));
  m_ringFiles->setRange(2, 100000);
  m_ringFiles->setValue(10);
  m_ringFiles->setSuffix(tr(" files"));
  m_ringMegabytes->setObjectName(QStringLiteral("capture.ringMegabytes"));
  m_ringMegabytes->setRange(1, 100000);
  m_ringMegabytes->setValue(100);
  m_ringMegabytes->setSuffix(tr(" MB each"));
  for (QSpinBox* box : {m_ringFiles, m_ringMegabytes}) {
    box->setEnabled(false);
    connect(m_ring, &QCheckBox::toggled, box, &QWidget::setEnabled);
  }
  auto* layout = new QHBoxLayout(row);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(m_ring);
  layout->addWidget(m_ringFiles);
  layout->addWidget(m_ringMegabytes);
  layout->addStretch(1);
  return row;
}

QWidget* CaptureDialog::makeMoreOptions() {
  auto* box = new QWidget(this);
  auto* toggle = new QToolButton(box);
  toggle->setText(tr("More options"));
  toggle->setCheckable(true);
  toggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  toggle->setArrowType(Qt::RightArrow);
  toggle->setAutoRaise(true);
  auto* options = new QWidget(box);
  m_snaplen->setRange(64, 262144);
  m_snaplen->setValue(rudp::LiveOptions{}.snaplen);
  m_snaplen->setSuffix(tr(" bytes"));
  m_promiscuous->setChecked(rudp::LiveOptions{}.promiscuous);
  m_buffer->setRange(1, 4096);
  m_buffer->setValue(rudp::LiveOptions{}.buffer_mb);
  m_buffer->setSuffix(tr(" MB"));
  m_buffer->setToolTip(
      tr("Kernel buffer: bursts above the analysis rate wait here instead of being dropped"));
  auto* form = new QFormLayout(options);
  form->addRow(tr("Snap length:"), m_snaplen);
  form->addRow(QString(), m_promiscuous);
  form->addRow(tr("Buffer size:"), m_buffer);
  form->addRow(QString(), makeRingOptions(options));
  options->hide();
  connect(toggle, &QToolButton::toggled, options, [toggle, options](bool on) {
    options->setVisible(on);
    toggle->setArrowType(on ? Qt::DownArrow : Qt::RightArrow);
  });
  auto* layout = new QVBoxLayout(box);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(toggle, 0, Qt::AlignLeft);
  layout->addWidget(options);
  return box;
}

void CaptureDialog::fillInterfaces() {
  std::vector<rudp::CaptureInterface> list;
  try {
    list = rudp::captureInterfaces();
  } catch (const std::exception& e) {
    m_interfaceError->setText(tr("Cannot list the interfaces: %1").arg(QString::fromStdString(e.what())));
    m_interfaceError->show();
  }
  for (const rudp::CaptureInterface& i : list) {
    QStringList addresses;
    for (const std::string& a : i.addresses) addresses << QString::fromStdString(a);
    auto* item = new QTreeWidgetItem(
        m_interfaces, {QString::fromStdString(i.name), addresses.join(QStringLiteral(", ")), stateText(i)});
    item->setToolTip(0, QString::fromStdString(i.description));
  }
  if (list.empty() && m_interfaceError->isHidden()) {
    m_interfaceError->setText(tr("libpcap lists no interface to capture on."));
    m_interfaceError->show();
  }
}

void CaptureDialog::selectInterface(const QString& name) {
  const auto found = m_interfaces->findItems(name, Qt::MatchExactly, 0);
  if (!found.isEmpty())
    m_interfaces->setCurrentItem(found.first());
  else if (!m_interfaces->currentItem() && m_interfaces->topLevelItemCount() > 0)
    m_interfaces->setCurrentItem(m_interfaces->topLevelItem(0));
}

QString CaptureDialog::currentInterface() const {
  const QTreeWidgetItem* item = m_interfaces->currentItem();
  return item ? item->text(0) : QString();
}

void CaptureDialog::interfaceChanged() {
  if (!m_fileEdited) {
    const QString folder =
        m_file->text().isEmpty() ? defaultFolder() : QFileInfo(m_file->text()).absolutePath();
    m_file->setText(defaultCaptureFile(folder, currentInterface()));
  }
  checkFilter();
}

void CaptureDialog::checkFilter() {
  const int dlt = currentInterface() == QLatin1String("any") ? kDltLinuxCooked : kDltEthernet;
  m_filterError = QString::fromStdString(rudp::captureFilterError(m_filter->text().toStdString(), dlt));
  colourFilter(m_filter, m_filterError.isEmpty());
  m_filterMessage->setText(m_filterError.isEmpty() ? tr("Valid filter.") : m_filterError);
  updateStart();
}

void CaptureDialog::browse() {
  const QString path = QFileDialog::getSaveFileName(this, tr("Write the Capture to"), m_file->text(),
                                                    tr("pcapng (*.pcapng);;All files (*)"));
  if (path.isEmpty()) return;
  m_file->setText(path);
  m_fileEdited = true;
  updateStart();
}

void CaptureDialog::updateStart() {
  m_start->setEnabled(!currentInterface().isEmpty() && m_filterError.isEmpty() && !m_file->text().isEmpty());
}

rudp::LiveOptions CaptureDialog::options() const {
  rudp::LiveOptions o;
  o.interface = currentInterface().toStdString();
  o.filter = m_filter->text().trimmed().toStdString();
  o.snaplen = m_snaplen->value();
  o.promiscuous = m_promiscuous->isChecked();
  o.buffer_mb = m_buffer->value();
  o.output = QFileInfo(m_file->text()).absoluteFilePath().toStdString();
  o.duration_s = m_duration->value();
  if (m_ring->isChecked()) {
    o.ring_files = unsigned(m_ringFiles->value());
    o.ring_file_bytes = uint64_t(m_ringMegabytes->value()) * 1'000'000;
  }
  return o;
}

void CaptureDialog::accept() {
  if (!m_start->isEnabled()) return;
  QSettings settings;
  settings.setValue(kInterfaceKey, currentInterface());
  settings.setValue(kFilterKey, m_filter->text());
  settings.setValue(kFolderKey, QFileInfo(m_file->text()).absolutePath());
  QDialog::accept();
}

}  // namespace rudp::gui
