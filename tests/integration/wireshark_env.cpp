#include "wireshark_env.h"

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace rudp::test {

ProcessResult runWithEnv(const Env& vars, const std::vector<std::string>& argv) {
  std::vector<std::string> full = {"env"};
  for (const auto& [name, value] : vars) full.push_back(name + "=" + value);
  full.insert(full.end(), argv.begin(), argv.end());
  return run(full);
}

ProcessResult wiresharkCli(const Env& vars, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {RUDPSCOPE_CLI, "wireshark"};
  argv.insert(argv.end(), args.begin(), args.end());
  return runWithEnv(vars, argv);
}

std::string pluginFolderOf(const TempDir& home) {
  return (home.path / ".local/lib/wireshark/plugins").string();
}

std::string copyDissectors(const TempDir& dir, const std::string& name) {
  const fs::path to = dir.path / name;
  fs::create_directories(to);
  for (const auto& e : fs::directory_iterator(fs::path(RUDPSCOPE_SOURCE_DIR) / "dissectors"))
    if (e.path().extension() == ".lua") fs::copy_file(e.path(), to / e.path().filename());
  return to.string();
}

void writeScript(const std::string& path, const std::string& body) {
  writeText(path, "#!/bin/sh\n" + body);
  ::chmod(path.c_str(), 0755);
}

std::string fileText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void writeText(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

std::map<std::string, std::string> statesIn(const std::string& statusOutput) {
  std::map<std::string, std::string> states;
  for (const auto& line : splitLines(statusOutput)) {
    std::istringstream words(line);
    std::string name, state;
    if (line.rfind("  ", 0) == 0 && (words >> name >> state) && name.size() > 4 &&
        name.compare(name.size() - 4, 4, ".lua") == 0)
      states[name] = state;
  }
  return states;
}

}  // namespace rudp::test
