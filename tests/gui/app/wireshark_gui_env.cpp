#include "wireshark_gui_env.h"

#include <sys/stat.h>

#include <QFile>
#include <catch2/catch.hpp>
#include <fstream>

namespace rudp::test {

ScopedEnv::ScopedEnv(const char* name, const QByteArray& value)
    : m_name(name), m_old(qgetenv(name)), m_had(qEnvironmentVariableIsSet(name)) {
  qputenv(name, value);
}

ScopedEnv::~ScopedEnv() {
  if (m_had)
    qputenv(m_name, m_old);
  else
    qunsetenv(m_name);
}

void writeFakeWireshark(const TempDir& bin, const std::string& argsFile) {
  const std::string path = bin / "wireshark";
  std::ofstream(path) << "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > '" << argsFile
                      << ".part' && mv '" << argsFile << ".part' '" << argsFile << "'\n";
  ::chmod(path.c_str(), 0755);
}

QStringList recordedArguments(const std::string& argsFile) {
  QFile f(QString::fromStdString(argsFile));
  if (!f.open(QIODevice::ReadOnly)) return {};
  QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'));
  if (!lines.isEmpty() && lines.last().isEmpty()) lines.removeLast();
  return lines;
}

std::vector<std::string> tsharkFields(const std::string& capture, const std::vector<std::string>& fields,
                                      const std::string& filter) {
  TempDir home("tshark-home");
  std::vector<std::string> argv = {
      "env", "HOME=" + home.path.string(), TSHARK_EXECUTABLE, "-r", capture, "-T", "fields"};
  for (const auto& f : fields) argv.insert(argv.end(), {"-e", f});
  if (!filter.empty()) argv.insert(argv.end(), {"-Y", filter});
  const ProcessResult r = run(argv);
  INFO(r.err);
  REQUIRE(r.status == 0);
  return splitLines(r.out);
}

}  // namespace rudp::test
