// rudpscope --quit-after-load, the real binary on Qt's offscreen platform with
// HOME in a temporary folder: exit 0 once the capture is analysed and shown,
// or the window's one-line error on stderr and exit 1; without a FILE, exit 2.
#include <filesystem>
#include <fstream>

#include "../models/catch_qt.h"
#include "app_fixture.h"
#include "store/db_path.h"
#include "store/store_reader.h"

using namespace rudp;
using namespace rudp::test;
namespace fs = std::filesystem;

namespace {

// What Qt's offscreen platform prints for every top-level window it shows.
const std::string kOffscreenNote = "This plugin does not support propagateSizeHints()";

struct Gui {
  TempDir home{"quit-home"};
  std::vector<std::string> env = {"env",
                                  "-i",
                                  "HOME=" + home.path.string(),
                                  "LANG=C.UTF-8",
                                  "QT_QPA_PLATFORM=offscreen",
                                  "XDG_RUNTIME_DIR=" + (home / "run")};

  Gui() {
    fs::create_directories(home / "run");
    fs::permissions(home / "run", fs::perms::owner_all);  // Qt insists on 0700
  }

  ProcessResult run(const std::vector<std::string>& args) const {
    std::vector<std::string> argv = env;
    argv.push_back(RUDPSCOPE_GUI);
    argv.insert(argv.end(), args.begin(), args.end());
    return rudp::test::run(argv);
  }
};

// stderr without the offscreen platform's notes.
std::vector<std::string> errorLines(const ProcessResult& r) {
  std::vector<std::string> lines;
  for (const std::string& line : splitLines(r.err))
    if (line != kOffscreenNote) lines.push_back(line);
  return lines;
}

}  // namespace

TEST_CASE("rudpscope --quit-after-load exits 0 once the capture is analysed and shown") {
  Gui gui;
  TempDir dir("quit-sample");
  const std::string pcap = copySample(dir);
  const ProcessResult r = gui.run({"--quit-after-load", "--page", "timeline", pcap});
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(r.out.empty());
  CHECK(errorLines(r).empty());
  StoreReader reader(defaultDatabasePath(pcap));
  CHECK(reader.capture().packet_count == 5311);
}

TEST_CASE("rudpscope --quit-after-load says why a capture cannot be opened and exits 1") {
  Gui gui;
  TempDir dir("quit-errors");
  std::string file, expected;
  SECTION("not a capture") {
    file = dir / "notes.pcap";
    std::ofstream(file) << "these are my notes, not a capture\n";
    expected = "rudpscope: Cannot open notes.pcap: '" + file + "' is not a pcap or pcapng capture";
  }
  SECTION("a missing file") {
    file = dir / "missing.pcap";
    expected = "rudpscope: Cannot open missing.pcap: cannot open '" + file + "': no such file";
  }
  SECTION("a broken dissector") {
    file = copySample(dir);
    fs::create_directories(dir / "dissectors");
    std::ofstream(dir / "dissectors/broken.lua") << "local p = Proto(\"brk\", \"Broken\")\nlocal x = = 3\n";
    gui.env.push_back("RUDPSCOPE_DISSECTORS=" + (dir / "dissectors"));
    expected = "rudpscope: Cannot open sample.pcap: broken.lua:2: unexpected symbol near '='";
  }
  const ProcessResult r = gui.run({"--quit-after-load", file});
  CHECK(r.status == 1);
  CHECK(r.out.empty());
  CHECK(errorLines(r) == std::vector<std::string>{expected});
  CHECK_FALSE(fs::exists(defaultDatabasePath(file)));
}

TEST_CASE("rudpscope --quit-after-load without a FILE is a usage error") {
  const ProcessResult r = Gui().run({"--quit-after-load"});
  CHECK(r.status == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "rudpscope: --quit-after-load needs a FILE to open\n");
}
