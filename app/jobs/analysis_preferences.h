// What the user chose in Settings for analysing a capture: the stall
// threshold (or a genre preset giving it), the RTT limit lines, dissector
// preferences (as `-o name:value`), extra Lua scripts and the TLS key log
// QUIC is decrypted with. Kept in QSettings
// and turned into the core's IngestOptions / DissectorOptions.
#pragma once
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>
#include <array>

#include "lua/dissector_files.h"
#include "session/ingest.h"
#include "store/records.h"

class QSettings;

namespace rudp::gui {

struct GenrePreset {
  QString key;    // the name rudp::ana::genreStallMs knows
  QString label;  // shown in the settings dialog
};
// The presets of the core (fighting, fps, racing, moba, mmo, turn-based).
const QList<GenrePreset>& genrePresets();

struct AnalysisPreferences {
  QString genre;  // empty: custom threshold
  double stall_ms = 200.0;
  std::array<double, 3> rtt_limits_ms{150.0, 250.0, 300.0};
  QList<QPair<QString, QString>> dissector_prefs;  // -o name:value
  QStringList extra_scripts;                       // -X lua_script:FILE
  QString keylog_file;                             // -o tls.keylog_file:FILE; empty: none

  static AnalysisPreferences load(QSettings& settings);
  void save(QSettings& settings) const;

  rudp::IngestOptions ingestOptions() const;
  rudp::DissectorOptions dissectorOptions() const;

  bool operator==(const AnalysisPreferences&) const = default;
};

}  // namespace rudp::gui
