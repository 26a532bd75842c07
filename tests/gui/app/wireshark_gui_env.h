// What the GUI's Wireshark tests share: HOME and PATH changed for this test
// process and put back afterwards, and a fake `wireshark` that records its
// arguments.
#pragma once
#include <QByteArray>
#include <QStringList>
#include <string>

#include "process.h"

namespace rudp::test {

// Sets an environment variable until destroyed.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const QByteArray& value);
  ~ScopedEnv();
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* m_name;
  QByteArray m_old;
  bool m_had;
};

// bin/wireshark: writes its arguments, one a line, to `argsFile` (whole,
// renamed into place).
void writeFakeWireshark(const TempDir& bin, const std::string& argsFile);
// The lines of a file written by the fake; empty until it exists.
QStringList recordedArguments(const std::string& argsFile);

// tshark -T fields with `fields` over `capture` (HOME without plugins).
std::vector<std::string> tsharkFields(const std::string& capture, const std::vector<std::string>& fields,
                                      const std::string& filter = {});

}  // namespace rudp::test
