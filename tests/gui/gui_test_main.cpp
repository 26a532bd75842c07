// Catch2 main for GUI tests: a QApplication on the offscreen platform (set
// before it starts), so widgets render without a display, and settings of
// the process's own: ctest runs test cases as parallel processes, which
// would otherwise race on one settings file (one case hiding a column while
// another expects it shown).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <QApplication>
#include <QSettings>
#include <QTemporaryDir>

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM", qgetenv("QT_QPA_PLATFORM").isEmpty() ? "offscreen" : qgetenv("QT_QPA_PLATFORM"));
  QApplication app(argc, argv);
  const QTemporaryDir settings;
  for (const auto format : {QSettings::NativeFormat, QSettings::IniFormat})
    QSettings::setPath(format, QSettings::UserScope, settings.path());
  return Catch::Session().run(argc, argv);
}
