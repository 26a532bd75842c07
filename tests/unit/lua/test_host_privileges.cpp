// The dissector environment: Wireshark's globals (no LuaJIT ffi or jit),
// and, in a process that runs with privileges (these tests run as root, as
// the README's test command does), only Lua files owned by root that no one
// else can write: dofile, loadfile and require included.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "core/error.h"
#include "test_support.h"

using namespace rudp;
using namespace rudp::test;
namespace fs = std::filesystem;

namespace {

struct Folder {
  fs::path path = fs::temp_directory_path() / ("rudpscope-lua-trust-" + std::to_string(::getpid()));
  Folder() {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~Folder() { fs::remove_all(path); }
  // A Lua file owned by uid:gid with `mode`.
  std::string write(const std::string& name, const std::string& text, uid_t uid = 0, gid_t gid = 0,
                    mode_t mode = 0644) const {
    const std::string file = (path / name).string();
    std::ofstream(file) << text;
    REQUIRE(::chown(file.c_str(), uid, gid) == 0);
    REQUIRE(::chmod(file.c_str(), mode) == 0);
    return file;
  }
};

// The one line a refused file gets.
std::string refusal(const std::string& name, const std::string& reason) {
  return name + ": not loaded: " + reason +
         ", and this program runs with privileges (root), so it loads only Lua files owned by root that no "
         "one "
         "else can write";
}

std::string loadError(const std::string& file) {
  LuaHost h;
  try {
    h.loadScript(file);
    h.finishLoading();
  } catch (const DissectorError& e) { return e.what(); }
  return "";
}

const char* kDissector = "local p = Proto('trusted', 'Trusted')\nfunction p.dissector() end\n";

}  // namespace

TEST_CASE("a dissector sees Wireshark's globals: no ffi, no jit", "[lua]") {
  Folder dir;
  const std::string file =
      dir.write("probe.lua",
                "assert(jit == nil, 'jit')\n"
                "assert(not pcall(require, 'ffi'), 'ffi')\n"
                "assert(package.loaded.ffi == nil and package.preload.ffi == nil, 'ffi')\n"
                "assert(type(os.time) == 'function' and type(io.open) == 'function')\n" +
                    std::string(kDissector));
  CHECK(loadError(file).empty());
}

TEST_CASE("running with privileges, only Lua files of root's that no one else can write load", "[lua]") {
  REQUIRE(::geteuid() == 0);  // the README's test command runs as root
  Folder dir;
  CHECK(loadError(dir.write("mine.lua", kDissector)).empty());
  CHECK(loadError(grudpPath()).empty());  // the bundled dissector, as checked out by root

  CHECK(loadError(dir.write("other.lua", kDissector, 65534, 0)) ==
        refusal("other.lua", "it is owned by uid 65534 (nobody)"));
  CHECK(loadError(dir.write("world.lua", kDissector, 0, 0, 0646)) ==
        refusal("world.lua", "everyone can write it"));
  CHECK(loadError(dir.write("group.lua", kDissector, 0, 65534, 0664)) ==
        refusal("group.lua", "its group (gid 65534) can write it"));
  // Root's own group may write it: only root is in it.
  CHECK(loadError(dir.write("rootgroup.lua", kDissector, 0, 0, 0664)).empty());
}

TEST_CASE("running with privileges, dofile, loadfile and require check the file too", "[lua]") {
  REQUIRE(::geteuid() == 0);
  Folder dir;
  const std::string helper = dir.write("helper.lua", "return 42\n", 65534, 0);
  dir.write("trusted_helper.lua", "return 7\n");
  const std::string quoted = "'" + helper + "'";
  CHECK_THAT(loadError(dir.write("uses_dofile.lua", "dofile(" + quoted + ")\n")),
             Catch::Contains(helper + ": not loaded: it is owned by uid 65534 (nobody)"));
  const std::string loadfile = dir.write(
      "uses_loadfile.lua", "local f, err = loadfile(" + quoted + ")\nassert(f == nil)\nerror(err, 0)\n");
  CHECK_THAT(loadError(loadfile),
             Catch::Contains(helper + ": not loaded: it is owned by uid 65534 (nobody)"));
  const std::string path = "package.path = '" + dir.path.string() + "/?.lua'\n";
  CHECK_THAT(loadError(dir.write("uses_require.lua", path + "require('helper')\n")),
             Catch::Contains(helper + ": not loaded: it is owned by uid 65534 (nobody)"));
  CHECK(loadError(dir.write("uses_trusted.lua",
                            path + "assert(require('trusted_helper') == 7)\n" + std::string(kDissector)))
            .empty());
  // C modules: no ownership check could make them safe here.
  CHECK(loadError(dir.write("uses_loadlib.lua",
                            "assert(package.loadlib == nil, 'loadlib')\n" + std::string(kDissector)))
            .empty());
}
