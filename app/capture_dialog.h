// Capture > Start: the interface (as libpcap lists it, with its addresses and
// state), a capture filter checked as it is typed (green, or red with
// libpcap's reason), the file to write (capture-IFACE-DATE-TIME.pcapng, as
// the CLI names it) and how long; snap length, promiscuous mode and buffer
// size under "More options". Start is enabled only for a capture that can
// begin.
#pragma once
#include <QDialog>

#include "capture/live_capture.h"

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTreeWidget;
class QWidget;

namespace rudp::gui {

class CaptureDialog : public QDialog {
  Q_OBJECT
 public:
  // Remembers the last interface, filter and folder in QSettings.
  explicit CaptureDialog(QWidget* parent = nullptr);

  // What was chosen (`stop` unset).
  rudp::LiveOptions options() const;
  // Empty when the filter is valid; else libpcap's reason (shown in red).
  QString filterError() const { return m_filterError; }

  void selectInterface(const QString& name);
  QLineEdit* filterEdit() const { return m_filter; }
  QLineEdit* fileEdit() const { return m_file; }
  QTreeWidget* interfaceList() const { return m_interfaces; }
  QLabel* filterMessage() const { return m_filterMessage; }
  QPushButton* startButton() const { return m_start; }

  void accept() override;

 private:
  QWidget* makeInterfaceList();
  QWidget* makeMoreOptions();
  QWidget* makeRingOptions(QWidget* parent);
  void fillInterfaces();
  void checkFilter();
  void interfaceChanged();
  void browse();
  void updateStart();
  QString currentInterface() const;

  QTreeWidget* m_interfaces;
  QLabel* m_interfaceError;
  QLineEdit* m_filter;
  QLabel* m_filterMessage;
  QLineEdit* m_file;
  QDoubleSpinBox* m_duration;
  QSpinBox* m_snaplen;
  QCheckBox* m_promiscuous;
  QSpinBox* m_buffer;
  QCheckBox* m_ring;
  QSpinBox* m_ringFiles;
  QSpinBox* m_ringMegabytes;
  QPushButton* m_start;
  QString m_filterError;
  bool m_fileEdited = false;  // the user typed or chose a file: keep it
};

// capture-IFACE-YYYYmmdd-HHMMSS.pcapng (the CLI's default name) in `folder`.
QString defaultCaptureFile(const QString& folder, const QString& iface);

}  // namespace rudp::gui
