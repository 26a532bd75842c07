#include "jobs/analysis_preferences.h"

#include <QSettings>

#include "analyzers/events.h"

namespace rudp::gui {

const QList<GenrePreset>& genrePresets() {
  static const QList<GenrePreset> presets = {
      {QStringLiteral("fighting"), QStringLiteral("Fighting")},
      {QStringLiteral("fps"), QStringLiteral("First-person shooter")},
      {QStringLiteral("racing"), QStringLiteral("Racing")},
      {QStringLiteral("moba"), QStringLiteral("MOBA")},
      {QStringLiteral("mmo"), QStringLiteral("MMO")},
      {QStringLiteral("turn-based"), QStringLiteral("Turn-based")},
  };
  return presets;
}

AnalysisPreferences AnalysisPreferences::load(QSettings& settings) {
  AnalysisPreferences p;
  settings.beginGroup(QStringLiteral("analysis"));
  p.genre = settings.value(QStringLiteral("genre")).toString();
  p.stall_ms = settings.value(QStringLiteral("stall_ms"), p.stall_ms).toDouble();
  const QVariantList limits = settings.value(QStringLiteral("rtt_limits_ms")).toList();
  if (limits.size() == int(p.rtt_limits_ms.size()))
    for (size_t i = 0; i < p.rtt_limits_ms.size(); ++i) p.rtt_limits_ms[i] = limits[int(i)].toDouble();
  for (const QString& pref : settings.value(QStringLiteral("dissector_prefs")).toStringList()) {
    const qsizetype colon = pref.indexOf(QLatin1Char(':'));
    if (colon > 0) p.dissector_prefs.append({pref.left(colon), pref.mid(colon + 1)});
  }
  p.extra_scripts = settings.value(QStringLiteral("extra_scripts")).toStringList();
  p.keylog_file = settings.value(QStringLiteral("keylog_file")).toString();
  settings.endGroup();
  return p;
}

void AnalysisPreferences::save(QSettings& settings) const {
  settings.beginGroup(QStringLiteral("analysis"));
  settings.setValue(QStringLiteral("genre"), genre);
  settings.setValue(QStringLiteral("stall_ms"), stall_ms);
  QVariantList limits;
  for (double l : rtt_limits_ms) limits.append(l);
  settings.setValue(QStringLiteral("rtt_limits_ms"), limits);
  QStringList prefs;
  for (const auto& [name, value] : dissector_prefs) prefs.append(name + QLatin1Char(':') + value);
  settings.setValue(QStringLiteral("dissector_prefs"), prefs);
  settings.setValue(QStringLiteral("extra_scripts"), extra_scripts);
  settings.setValue(QStringLiteral("keylog_file"), keylog_file);
  settings.endGroup();
}

rudp::IngestOptions AnalysisPreferences::ingestOptions() const {
  rudp::IngestOptions options;
  options.analysis.stall_ms = stall_ms;
  options.analysis.rtt_limits_ms = rtt_limits_ms;
  return options;
}

rudp::DissectorOptions AnalysisPreferences::dissectorOptions() const {
  rudp::DissectorOptions options;
  for (const QString& script : extra_scripts) options.extra_scripts.push_back(script.toStdString());
  for (const auto& [name, value] : dissector_prefs)
    options.prefs.emplace_back(name.toStdString(), value.toStdString());
  if (!keylog_file.isEmpty()) options.prefs.emplace_back("tls.keylog_file", keylog_file.toStdString());
  return options;
}

}  // namespace rudp::gui
