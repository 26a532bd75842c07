// Settings (Ctrl+Shift+P): the stall threshold with the genre presets, the
// RTT limit lines, dissector preferences (as `-o name:value`), extra Lua
// scripts and the TLS key log QUIC is decrypted with. The main window re-analyses the open capture when they
// change.
#pragma once
#include <QDialog>

#include "jobs/analysis_preferences.h"

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QListWidget;
class QTableWidget;

namespace rudp::gui {

class SettingsDialog : public QDialog {
  Q_OBJECT
 public:
  explicit SettingsDialog(const AnalysisPreferences& prefs, QWidget* parent = nullptr);
  AnalysisPreferences preferences() const;

 private:
  QWidget* makeStallGroup();
  QWidget* makeRttGroup();
  QWidget* makeDissectorGroup();
  QWidget* makeQuicGroup();
  void presetChosen(int index);
  void thresholdEdited(double ms);
  void addScript();
  void load(const AnalysisPreferences& prefs);

  QComboBox* m_genre;
  QDoubleSpinBox* m_stall;
  QDoubleSpinBox* m_limits[3];
  QTableWidget* m_prefs;
  QListWidget* m_scripts;
  QLineEdit* m_keylog;
};

}  // namespace rudp::gui
