// rudpscope-cli wireshark install|status|uninstall against the real tshark,
// with HOME set to a temporary folder.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "cli_checks.h"
#include "wireshark_env.h"

using namespace rudp::test;
namespace fs = std::filesystem;

namespace {

const std::map<std::string, std::string> kAllInstalled = {{"enet.lua", "installed"},
                                                          {"grudp.lua", "installed"},
                                                          {"kcp.lua", "installed"},
                                                          {"raknet.lua", "installed"},
                                                          {"udt.lua", "installed"}};

std::string simCapture(const TempDir& dir) {
  const std::string cap = dir / "sim.pcap";
  REQUIRE(run({GRUDP_SIM, "--out", cap, "--connections", "3", "--duration", "3", "--seed", "11", "--loss",
               "0.05"})
              .status == 0);
  return cap;
}

std::vector<std::string> grudpFrames(const Env& env, const std::string& capture,
                                     const std::vector<std::string>& extra = {}) {
  std::vector<std::string> argv = {TSHARK_EXECUTABLE, "-r", capture};
  argv.insert(argv.end(), extra.begin(), extra.end());
  argv.insert(argv.end(), {"-Y", "grudp", "-T", "fields", "-e", "frame.number"});
  const auto r = runWithEnv(env, argv);
  INFO(r.err);
  REQUIRE(r.status == 0);
  return splitLines(r.out);
}

}  // namespace

TEST_CASE("installed dissectors decode every GRUDP frame in plain tshark") {
  TempDir dir("ws-install"), home("ws-home"), bare("ws-bare");
  const std::string cap = simCapture(dir);
  const Env env = {{"HOME", home.path.string()}};

  // Before: tshark does not know the protocol at all.
  CHECK(runWithEnv(env, {TSHARK_EXECUTABLE, "-r", cap, "-Y", "grudp"}).status != 0);

  const auto r = wiresharkCli(env, {"install"});
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("Wireshark personal Lua plugins folder: " + pluginFolderOf(home) + "\n") !=
        std::string::npos);
  CHECK(r.out.find("found: reported by `tshark -G folders`") != std::string::npos);
  for (const char* name : {"enet.lua", "grudp.lua", "kcp.lua", "raknet.lua", "udt.lua"}) {
    CHECK(r.out.find(std::string("  ") + name) != std::string::npos);
    CHECK(fileText(pluginFolderOf(home) + "/" + name) ==
          fileText(std::string(RUDPSCOPE_SOURCE_DIR) + "/dissectors/" + name));
  }

  const auto plain = grudpFrames(env, cap);
  const auto withX =
      grudpFrames({{"HOME", bare.path.string()}}, cap,
                  {"-X", std::string("lua_script:") + RUDPSCOPE_SOURCE_DIR + "/dissectors/grudp.lua"});
  // Every frame grudp-sim writes is GRUDP.
  const auto all = splitLines(run({TSHARK_EXECUTABLE, "-r", cap, "-T", "fields", "-e", "frame.number"}).out);
  CHECK(plain == withX);
  CHECK(plain == all);

  CHECK(statesIn(wiresharkCli(env, {"status"}).out) == kAllInstalled);
}

TEST_CASE(
    "install turns Wireshark's built-in raknet off so plain tshark decodes RakNet with ours, uninstall turns "
    "it back on") {
  TempDir home("ws-home");
  const Env env = {{"HOME", home.path.string()}};
  const std::string cap = std::string(RUDPSCOPE_SOURCE_DIR) + "/tests/kcp_enet/data/raknet_loss5/client.pcap";
  const std::string config = (home.path / ".config" / "wireshark").string();
  writeText(config + "/disabled_protos", "bogus_proto\n");  // the user's own line stays
  auto frames = [&](const char* filter) {
    const auto r =
        runWithEnv(env, {TSHARK_EXECUTABLE, "-r", cap, "-Y", filter, "-T", "fields", "-e", "frame.number"});
    return r.status == 0 ? splitLines(r.out).size() : size_t(0);
  };
  const size_t all =
      splitLines(run({TSHARK_EXECUTABLE, "-r", cap, "-T", "fields", "-e", "frame.number"}).out).size();
  REQUIRE(all == 1022);
  CHECK(frames("raknet") == all);  // the built-in one claims every frame
  CHECK(frames("raknet4") == 0);   // an unknown protocol: tshark refuses the filter

  const auto r = wiresharkCli(env, {"install"});
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("Wireshark's built-in raknet: turned off (" + config +
                   "/disabled_protos), ours decodes it") != std::string::npos);
  CHECK(fileText(config + "/disabled_protos") == "bogus_proto\nraknet\nudt\n");
  CHECK(frames("raknet4") == all);
  CHECK(frames("raknet") == 0);
  const auto status = wiresharkCli(env, {"status"});
  CHECK(status.out.find("  raknet       off") != std::string::npos);

  // A second install adds nothing.
  const auto again = wiresharkCli(env, {"install"});
  CHECK(again.out.find("Wireshark's built-in raknet: already off") != std::string::npos);
  CHECK(fileText(config + "/disabled_protos") == "bogus_proto\nraknet\nudt\n");

  const auto u = wiresharkCli(env, {"uninstall"});
  INFO(u.out << u.err);
  REQUIRE(u.status == 0);
  CHECK(u.out.find("Wireshark's built-in raknet: back on") != std::string::npos);
  CHECK(fileText(config + "/disabled_protos") == "bogus_proto\n");
  CHECK(frames("raknet") == all);
}

TEST_CASE("install turns Wireshark's built-in udt off so plain tshark decodes UDT4 with ours") {
  TempDir home("ws-home");
  const Env env = {{"HOME", home.path.string()}};
  const std::string cap = std::string(RUDPSCOPE_SOURCE_DIR) + "/tests/kcp_enet/data/udt_loss5/client.pcap";
  auto frames = [&](const char* filter) {
    const auto r =
        runWithEnv(env, {TSHARK_EXECUTABLE, "-r", cap, "-Y", filter, "-T", "fields", "-e", "frame.number"});
    return r.status == 0 ? splitLines(r.out).size() : size_t(0);
  };
  const size_t all =
      splitLines(run({TSHARK_EXECUTABLE, "-r", cap, "-T", "fields", "-e", "frame.number"}).out).size();
  REQUIRE(all == 1563);
  CHECK(frames("udt") == all);  // the built-in one claims the conversation from the handshake
  CHECK(frames("udt4") == 0);

  const auto r = wiresharkCli(env, {"install"});
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("Wireshark's built-in udt: turned off (") != std::string::npos);
  CHECK(frames("udt4") == all);
  CHECK(frames("udt") == 0);
  CHECK(wiresharkCli(env, {"status"}).out.find("  udt          off") != std::string::npos);

  REQUIRE(wiresharkCli(env, {"uninstall"}).status == 0);
  CHECK(frames("udt") == all);
}

TEST_CASE("a built-in the user had turned off stays off after uninstall") {
  TempDir home("ws-home");
  const Env env = {{"HOME", home.path.string()}};
  const std::string config = (home.path / ".config" / "wireshark").string();
  writeText(config + "/disabled_protos", "raknet\n");
  REQUIRE(wiresharkCli(env, {"install"}).status == 0);
  REQUIRE(wiresharkCli(env, {"uninstall"}).status == 0);
  CHECK(fileText(config + "/disabled_protos") == "raknet\n");
}

TEST_CASE("status tells installed, outdated and missing apart") {
  TempDir home("ws-home"), copies("ws-copies");
  const std::string ours = copyDissectors(copies, "dissectors");
  const Env env = {{"HOME", home.path.string()}, {"RUDPSCOPE_DISSECTORS", ours}};

  auto missing = wiresharkCli(env, {"status"});
  REQUIRE(missing.status == 0);
  CHECK(missing.out.find("rudpscope's dissectors: " + ours + "\n") != std::string::npos);
  CHECK(statesIn(missing.out) == std::map<std::string, std::string>{{"enet.lua", "missing"},
                                                                    {"grudp.lua", "missing"},
                                                                    {"kcp.lua", "missing"},
                                                                    {"raknet.lua", "missing"},
                                                                    {"udt.lua", "missing"}});

  REQUIRE(wiresharkCli(env, {"install"}).status == 0);
  CHECK(statesIn(wiresharkCli(env, {"status"}).out) == kAllInstalled);

  writeText(ours + "/grudp.lua", fileText(ours + "/grudp.lua") + "-- a newer version\n");
  const auto outdated = wiresharkCli(env, {"status"});
  CHECK(statesIn(outdated.out) == std::map<std::string, std::string>{{"enet.lua", "installed"},
                                                                     {"grudp.lua", "outdated"},
                                                                     {"kcp.lua", "installed"},
                                                                     {"raknet.lua", "installed"},
                                                                     {"udt.lua", "installed"}});

  const auto update = wiresharkCli(env, {"install"});
  REQUIRE(update.status == 0);
  CHECK(update.out.find("grudp.lua    written (was outdated)") != std::string::npos);
  CHECK(update.out.find("enet.lua     up to date") != std::string::npos);
  CHECK(fileText(pluginFolderOf(home) + "/grudp.lua") == fileText(ours + "/grudp.lua"));
  CHECK(statesIn(wiresharkCli(env, {"status"}).out) == kAllInstalled);
}

TEST_CASE("a file rudpscope did not install is never overwritten without --force") {
  TempDir home("ws-home");
  const Env env = {{"HOME", home.path.string()}};
  const std::string theirs = pluginFolderOf(home) + "/grudp.lua";
  const std::string theirText = "-- someone else's grudp dissector\n";
  writeText(theirs, theirText);

  CHECK(statesIn(wiresharkCli(env, {"status"}).out) ==
        std::map<std::string, std::string>{{"enet.lua", "missing"},
                                           {"grudp.lua", "foreign"},
                                           {"kcp.lua", "missing"},
                                           {"raknet.lua", "missing"},
                                           {"udt.lua", "missing"}});
  requireOneLineError(wiresharkCli(env, {"install"}),
                      theirs +
                          "' is a different file of that name that rudpscope did not install; not "
                          "overwritten (--force overwrites it)");
  CHECK(fileText(theirs) == theirText);
  CHECK(!fs::exists(pluginFolderOf(home) + "/enet.lua"));  // nothing at all was written
  CHECK(!fs::exists(pluginFolderOf(home) + "/.rudpscope-installed"));

  REQUIRE(wiresharkCli(env, {"install", "--force"}).status == 0);
  CHECK(statesIn(wiresharkCli(env, {"status"}).out) == kAllInstalled);
}

TEST_CASE("uninstall removes only the files rudpscope installed") {
  TempDir home("ws-home"), copies("ws-copies");
  const std::string two = copyDissectors(copies, "two");
  fs::remove(two + "/kcp.lua");
  const std::string plugins = pluginFolderOf(home);
  writeText(plugins + "/kcp.lua", "-- their kcp\n");  // same name as one of ours, not installed by us
  writeText(plugins + "/other.lua", "-- unrelated\n");
  REQUIRE(wiresharkCli({{"HOME", home.path.string()}, {"RUDPSCOPE_DISSECTORS", two}}, {"install"}).status ==
          0);
  writeText(plugins + "/enet.lua", fileText(plugins + "/enet.lua") + "-- edited in place\n");

  const auto r = wiresharkCli({{"HOME", home.path.string()}}, {"uninstall"});
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("grudp.lua    removed") != std::string::npos);
  CHECK(r.out.find("enet.lua     kept: edited since rudpscope installed it") != std::string::npos);
  CHECK(!fs::exists(plugins + "/grudp.lua"));
  CHECK(fileText(plugins + "/kcp.lua") == "-- their kcp\n");
  CHECK(fileText(plugins + "/other.lua") == "-- unrelated\n");
  CHECK(fs::exists(plugins + "/enet.lua"));
  CHECK(fileText(plugins + "/.rudpscope-installed").rfind("enet.lua\t", 0) == 0);
  CHECK(splitLines(fileText(plugins + "/.rudpscope-installed")).size() == 1);
}

TEST_CASE("the plugin folder comes from tshark, else from Wireshark's documented default") {
  TempDir home("ws-home"), bin("ws-bin");
  const Env base = {{"HOME", home.path.string()}};

  SECTION("tshark 4.4 reporting its own folder") {
    writeScript(bin / "tshark",
                "case \"$1\" in\n"
                "  -G) printf 'Personal configuration:\\t%s/.config/wireshark\\nPersonal Lua "
                "Plugins:\\t%s/lua44\\n' \"$HOME\" \"$HOME\" ;;\n"
                "  --version) echo 'TShark (Wireshark) 4.4.19 (Git v4.4.19 packaged as 4.4.19-1)'; echo ;;\n"
                "esac\n");
    const auto r = wiresharkCli(
        {{"HOME", home.path.string()}, {"PATH", bin.path.string() + ":/usr/bin:/bin"}}, {"status"});
    REQUIRE(r.status == 0);
    CHECK(r.out.find("Wireshark personal Lua plugins folder: " + (home / "lua44") + "\n") !=
          std::string::npos);
    CHECK(r.out.find("  found: reported by `tshark -G folders` (tshark 4.4.19)\n") != std::string::npos);
    const bool root = ::geteuid() == 0;
    CHECK((r.out.find("note: running as root: Wireshark 4.4.19 loads no Lua plugin for root") !=
           std::string::npos) == root);
  }
  SECTION("tshark 4.0 as root loads personal plugins") {
    const auto r = wiresharkCli(base, {"status"});
    const bool root = ::geteuid() == 0;
    CHECK((r.out.find("note: running as root: Wireshark 4.0.17 loads personal Lua plugins for root too") !=
           std::string::npos) == root);
  }
  SECTION("a tshark that names no personal Lua plugin folder") {
    writeScript(bin / "tshark", "exit 0\n");
    const auto r = wiresharkCli({{"HOME", home.path.string()}, {"PATH", bin.path.string()}}, {"status"});
    REQUIRE(r.status == 0);
    CHECK(r.out.find("Wireshark personal Lua plugins folder: " + pluginFolderOf(home) + "\n") !=
          std::string::npos);
    CHECK(r.out.find("found: Wireshark's documented default (`tshark -G folders` names no personal Lua "
                     "plugin folder)") != std::string::npos);
  }
  SECTION("no tshark at all") {
    const auto r = wiresharkCli({{"HOME", home.path.string()}, {"PATH", bin.path.string()}}, {"status"});
    REQUIRE(r.status == 0);
    CHECK(r.out.find("Wireshark personal Lua plugins folder: " + pluginFolderOf(home) + "\n") !=
          std::string::npos);
    CHECK(r.out.find("found: Wireshark's documented default (`tshark` was not found or failed)") !=
          std::string::npos);
  }
}

TEST_CASE("a plugin folder that cannot be created is one clear error") {
  TempDir home("ws-home");
  writeText(home / ".local", "a file where the folder should be\n");
  requireOneLineError(wiresharkCli({{"HOME", home.path.string()}}, {"install"}),
                      "cannot create the plugin folder '" + pluginFolderOf(home) + "'");
}
