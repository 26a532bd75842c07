// rudpscope --quit-after-load, the real binary on Qt's offscreen platform with
// HOME in a temporary folder: exit 0 once the capture is analysed and shown,
// or the window's one-line error on stderr and exit 1; without a FILE, exit 2.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

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

TEST_CASE("rudpscope -X lua_script:FILE and -o NAME:VALUE apply to this run and are not saved") {
  Gui gui;
  TempDir dir("quit-run-prefs");
  const std::string pcap = copySample(dir);
  const std::string extra = dir / "extra.lua";
  std::ofstream(extra) << "local p = Proto(\"xtra\", \"Extra test\")\n"
                          "function p.dissector(tvb, pinfo, tree) end\n"
                          "DissectorTable.get(\"udp.port\"):add(65001, p)\n";
  SECTION("a script and a known preference: analysed with them") {
    const ProcessResult r =
        gui.run({"--quit-after-load", "-X", "lua_script:" + extra, "-o", "grudp.port:7777", pcap});
    INFO(r.err);
    CHECK(r.status == 0);
    CHECK(errorLines(r).empty());
    StoreReader reader(defaultDatabasePath(pcap));
    std::vector<std::string> scripts;
    for (const auto& p : reader.protocols()) scripts.push_back(p.name + ":" + p.script);
    CHECK(std::count(scripts.begin(), scripts.end(), "xtra:extra.lua") == 1);
    // Nothing under HOME (QSettings) remembers the script.
    for (const auto& f : fs::recursive_directory_iterator(gui.home.path)) {
      if (!f.is_regular_file()) continue;
      std::ifstream in(f.path());
      const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      CHECK(text.find("extra.lua") == std::string::npos);
    }
  }
  SECTION("an unknown preference: the analysis says so") {
    const ProcessResult r = gui.run({"--quit-after-load", "-o", "nope.x:1", pcap});
    CHECK(r.status == 1);
    CHECK(errorLines(r) ==
          std::vector<std::string>{"rudpscope: Cannot open sample.pcap: unknown preference 'nope.x'"});
  }
  SECTION("malformed options: a usage error before any window") {
    std::string option, value, expected;
    SECTION("-X other than lua_script") {
      option = "-X", value = "read_format:pcap";
      expected =
          "rudpscope: -X takes lua_script:FILE (no other extension option is supported), not "
          "'read_format:pcap'\n";
    }
    SECTION("-X naming no file") {
      option = "-X", value = "lua_script:" + (dir / "none.lua");
      expected = "rudpscope: -X lua_script:" + (dir / "none.lua") + ": no such file\n";
    }
    SECTION("-o without a value") {
      option = "-o", value = "grudp.port";
      expected = "rudpscope: -o takes NAME:VALUE (e.g. grudp.port:7777), not 'grudp.port'\n";
    }
    const ProcessResult r = gui.run({"--quit-after-load", option, value, pcap});
    CHECK(r.status == 2);
    CHECK(r.err == expected);
  }
}
