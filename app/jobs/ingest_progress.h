// Where an ingest is, as the progress page shows it.
#pragma once
#include <QMetaType>
#include <QtGlobal>

namespace rudp::gui {

struct IngestProgress {
  enum class Phase { Checking, Reading, Finishing };
  Phase phase = Phase::Checking;
  double fraction = -1;  // 0..1 of the file read; -1 unknown
  quint64 packets = 0;
  double packets_per_second = 0;
  double seconds_left = -1;  // -1 unknown
};

}  // namespace rudp::gui

Q_DECLARE_METATYPE(rudp::gui::IngestProgress)
