// rudpscope-cli: the Qt-free command-line front end of the analysis core.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/lab_command.h"
#include "core/error.h"
#include "decode/capture_warnings.h"

namespace {

// Options shared by every subcommand that loads dissectors (tshark's spelling).
void addDissectorOptions(CLI::App* cmd, rudp::DissectorOptions& d, std::vector<std::string>& scripts,
                         std::vector<std::string>& prefs) {
  cmd->add_option("-X", scripts, "Extension option; lua_script:FILE loads one more dissector")
      ->type_name("lua_script:FILE");
  cmd->add_option("-o", prefs, "Set a preference, e.g. grudp.port:9999")->type_name("NAME:VALUE");
  cmd->add_flag(
      "--no-default-dissectors", [&d](int64_t) { d.load_defaults = false; },
      "Do not load the dissectors shipped in dissectors/");
}

void resolveDissectorOptions(rudp::DissectorOptions& d, const std::vector<std::string>& scripts,
                             const std::vector<std::string>& prefs) {
  for (const auto& x : scripts) {
    const std::string prefix = "lua_script:";
    if (x.rfind(prefix, 0) != 0) throw rudp::Error("-X takes lua_script:FILE, not '" + x + "'");
    d.extra_scripts.push_back(x.substr(prefix.size()));
  }
  for (const auto& p : prefs) {
    auto colon = p.find(':');
    if (colon == std::string::npos || colon == 0) throw rudp::Error("-o takes NAME:VALUE, not '" + p + "'");
    d.prefs.emplace_back(p.substr(0, colon), p.substr(colon + 1));
  }
}

void addKeepDamaged(CLI::App* cmd, bool& keep) {
  cmd->add_flag("--keep-damaged", keep,
                "A capture with a damaged record: use the frames before the damage instead of failing");
}

// Options of every subcommand that analyses (analyze, report, capture,
// compare). Compare analyses many captures, each into its own database: no --db.
void addAnalysisSettings(CLI::App* cmd, rudp::cli::AnalyzeArgs& a, bool oneDatabase = true) {
  if (oneDatabase)
    cmd->add_option("--db", a.db,
                    "Database to write (default: CAPTURE.rudpscope.sqlite beside the capture,"
                    " or the cache folder when that is read-only)");
  cmd->add_flag("-q,--quiet", a.quiet, "No progress on stderr");
  cmd->add_option("--stall-ms", a.stall_ms, "Stall threshold in ms (default 200)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--genre", a.genre,
                  "Stall threshold and response-time limits of a genre: fighting, fps, racing 30/50/50 ms"
                  " and 50,100,150; moba 150 and 150,250,300; mmo 300 and 150,300,500; turn-based"
                  " 1000 and 300,1000,2000")
      ->check(CLI::IsMember({"fighting", "fps", "racing", "moba", "mmo", "turn-based"}));
  cmd->add_option("--rtt-limits", a.rtt_limits,
                  "Three rising response-time limits in ms whose shares are counted (default 150,250,300"
                  " or the genre's)")
      ->delimiter(',')
      ->expected(3)
      ->check(CLI::PositiveNumber)
      ->type_name("MS,MS,MS");
  cmd->add_option("--max-open", a.max_open,
                  "Connections analysed at once (default 20000); past it the longest-silent"
                  " are closed early, and a later packet starts a new connection")
      ->check(CLI::Range(4, 10'000'000));
  cmd->add_option("-j,--jobs", a.jobs,
                  "Lua states dissecting in parallel (default: one per core; 1: single thread)");
  addKeepDamaged(cmd, a.keep_damaged);
}

void addAnalysisOptions(CLI::App* cmd, rudp::cli::AnalyzeArgs& a) {
  cmd->add_option("-Y", a.display_filter,
                  "Display filter: analyse only the frames it passes (as tshark -Y; the others are counted)")
      ->type_name("FILTER");
  cmd->add_option("capture", a.capture, "pcap or pcapng file")->required();
  addAnalysisSettings(cmd, a);
}

// rudpscope-cli capture: tcpdump's and dumpcap's spelling of the capture options.
CLI::App* addCaptureCommand(CLI::App& app, rudp::cli::CaptureArgs& c) {
  auto* cmd = app.add_subcommand(
      "capture",
      "Capture live, analyse as packets arrive, and print the summary analyze prints when it stops"
      " (Ctrl+C, SIGTERM or --duration)");
  cmd->add_option("-i,--interface", c.live.interface,
                  "Interface to capture on (see: rudpscope-cli interfaces)")
      ->required();
  cmd->add_option("-f", c.live.filter, "Capture filter, BPF syntax (default \"udp or tcp\"; \"\" for all)")
      ->type_name("FILTER");
  cmd->add_option("-w,--write", c.analysis.capture,
                  "pcapng file to write (default: capture-IFACE-DATE-TIME.pcapng here)")
      ->type_name("FILE");
  cmd->add_option("--duration", c.live.duration_s, "Stop after this many seconds")
      ->check(CLI::PositiveNumber);
  cmd->add_option("-s,--snaplen", c.live.snaplen, "Bytes kept per packet (default 262144)")
      ->check(CLI::Range(64, 262144));
  cmd->add_flag("-p,--no-promiscuous-mode", c.noPromiscuous, "Do not put the interface in promiscuous mode");
  cmd->add_option("-B,--buffer-size", c.live.buffer_mb, "Kernel buffer in MB (default 32)")
      ->check(CLI::Range(1, 4096));
  cmd->add_option("--ring", c.ring,
                  "A ring buffer of N files of MB megabytes each, each with its own database"
                  " (the summary is the last file's)")
      ->type_name("N:MB");
  cmd->add_flag("--json", c.analysis.json, "Print the summary as JSON");
  addAnalysisSettings(cmd, c.analysis);
  return cmd;
}

// rudpscope-cli wireshark install|status|uninstall|open.
CLI::App* addWiresharkCommand(CLI::App& app, rudp::cli::WiresharkArgs& w) {
  auto* cmd = app.add_subcommand(
      "wireshark", "Install rudpscope's dissectors into your Wireshark, or open frames of a capture in it");
  cmd->require_subcommand(1);
  auto* install = cmd->add_subcommand(
      "install", "Copy the dissectors into Wireshark's personal Lua plugins folder (tshark -G folders)");
  install->add_flag("--force", w.force,
                    "Also overwrite files of the same name that rudpscope did not install");
  cmd->add_subcommand("status",
                      "Show the folder and whether each dissector is installed, outdated or missing");
  cmd->add_subcommand("uninstall", "Remove the dissectors rudpscope installed (and nothing else)");
  auto* open = cmd->add_subcommand(
      "open",
      "Write chosen frames to a temporary pcapng and start wireshark on it with the dissectors loaded");
  open->add_option("capture", w.capture, "pcap or pcapng file")->required();
  open->add_option("--frames", w.frames, "Frames to open, e.g. 1-100,250")->type_name("LIST");
  open->add_option("--conn", w.conn, "Every frame of this connection (needs the capture analysed)")
      ->check(CLI::PositiveNumber);
  open->add_option("--db", w.db, "The capture's database (default: where analyze puts it)");
  open->add_option("-w,--write", w.output, "pcapng file to write (default: a new file in the temp folder)")
      ->type_name("FILE");
  open->add_option("-g", w.goToFrame, "Go to this frame (its number in CAPTURE)");
  open->add_option("-Y", w.displayFilter, "Display filter for wireshark");
  open->add_flag("--dry-run", w.dryRun, "Write the file and print the command, without starting wireshark");
  for (auto* sub : cmd->get_subcommands({})) sub->callback([&w, sub] { w.action = sub->get_name(); });
  return cmd;
}

// rudpscope-cli compare CAPTURE|DIR ...
CLI::App* addCompareCommand(CLI::App& app, rudp::cli::CompareArgs& c) {
  auto* cmd = app.add_subcommand(
      "compare",
      "Compare connections of captures side by side, and a capture set as a matrix (a metric against a"
      " label, one line per group)");
  cmd->add_option("inputs", c.inputs, "Captures, or folders of captures (a capture set)")->required();
  cmd->add_option("--label", c.labels, "KEY=VALUE given to every capture, over its own labels (repeatable)");
  cmd->add_flag("--json", c.json, "Print the table and the matrix as JSON");
  cmd->add_flag("--csv", c.csv, "Print the table and the matrix as CSV");
  cmd->add_option("--html", c.html,
                  "Also write the comparison (table, loss bursts, matrix chart) as an HTML page")
      ->type_name("FILE");
  cmd->add_option("--metric", c.metric, "Matrix metric (default share_over_300)");
  cmd->add_option("--x", c.x, "Matrix x axis: a numeric label (default loss)");
  cmd->add_option("--group", c.group, "One matrix line per value of this label (default stack)");
  cmd->add_option("--panel", c.panel, "One matrix panel per value of this label (default delay)");
  cmd->add_option("--direction", c.direction, "Direction the matrix reads: c2s or s2c (default c2s)")
      ->check(CLI::IsMember({"c2s", "s2c"}));
  addAnalysisSettings(cmd, c.analysis, false);
  return cmd;
}

// The dissector options' command-line values, turned into DissectorOptions
// once the command line has parsed. CLI11 keeps references into it: it stays
// where it was built.
class DissectorFlags {
 public:
  DissectorFlags(CLI::App* cmd, rudp::DissectorOptions& d) : d_(d) {
    addDissectorOptions(cmd, d, scripts_, prefs_);
  }
  DissectorFlags(const DissectorFlags&) = delete;
  DissectorFlags& operator=(const DissectorFlags&) = delete;
  void resolve() const { resolveDissectorOptions(d_, scripts_, prefs_); }

 private:
  rudp::DissectorOptions& d_;
  std::vector<std::string> scripts_, prefs_;
};

// One subcommand: the parser CLI11 fills and what runs once it has parsed.
struct Command {
  CLI::App* parsed;
  std::function<int()> run;
};

// A subcommand's arguments and its dissector flags, shared by its parser and its run.
template <class Args>
struct CommandState {
  Args args;
  std::optional<DissectorFlags> dissectors;
};

Command decodeCommand(CLI::App& app) {
  auto s = std::make_shared<CommandState<rudp::cli::DecodeArgs>>();
  rudp::cli::DecodeArgs& dec = s->args;
  auto* decode = app.add_subcommand(
      "decode",
      "Print a summary line per frame as tshark does; with -e its fields, tab-separated, as "
      "tshark -T fields; with -V its details tree, as tshark -V");
  decode->add_option("capture", dec.capture, "pcap or pcapng file")->required();
  auto* fieldsOption = decode->add_option("-e", dec.fields, "Field to print (repeatable)");
  auto* detailsFlag = decode->add_flag(
      "-V", dec.details, "Print each frame's details tree, every layer expanded, as tshark -V does");
  auto* expandOption =
      decode
          ->add_option("-O", dec.expand,
                       "With -V: expand only these protocols, built-in layers (frame, eth, ip, udp, tcp, "
                       "...) or Lua ones (comma-separated; implies -V), as tshark -O")
          ->delimiter(',');
  fieldsOption->excludes(detailsFlag)->excludes(expandOption);
  decode->add_option("-Y", dec.display_filter, "Display filter: only the frames it passes, as tshark -Y")
      ->type_name("FILTER");
  addKeepDamaged(decode, dec.keep_damaged);
  s->dissectors.emplace(decode, dec.dissectors);
  return {decode, [s] {
            s->dissectors->resolve();
            if (!s->args.expand.empty()) s->args.details = true;
            return rudp::cli::runDecode(s->args);
          }};
}

Command analyzeCommand(CLI::App& app) {
  auto s = std::make_shared<CommandState<rudp::cli::AnalyzeArgs>>();
  auto* analyze = app.add_subcommand(
      "analyze", "Analyse a capture into its SQLite database and print a per-connection summary");
  addAnalysisOptions(analyze, s->args);
  analyze->add_flag("--json", s->args.json, "Print the summary as JSON");
  analyze->add_flag("--no-analysis", s->args.no_analysis,
                    "Index packets and connections only, without RTT/loss/stall analysis");
  s->dissectors.emplace(analyze, s->args.dissectors);
  return {analyze, [s] {
            s->dissectors->resolve();
            return rudp::cli::runAnalyze(s->args);
          }};
}

Command reportCommand(CLI::App& app) {
  auto s = std::make_shared<CommandState<rudp::cli::ReportArgs>>();
  auto* report = app.add_subcommand(
      "report",
      "Write a self-contained HTML report (problems, connections, timelines), reusing the capture's"
      " database when it is a complete analysis of the same file with the same settings");
  addAnalysisOptions(report, s->args.analysis);
  report->add_option("-w,--output", s->args.output, "HTML file to write (-o is the preference option)")
      ->required()
      ->type_name("FILE");
  report->add_option("--top", s->args.top, "Timelines of the worst N connections (default 3)")
      ->check(CLI::Range(0, 1000));
  s->dissectors.emplace(report, s->args.analysis.dissectors);
  return {report, [s] {
            s->dissectors->resolve();
            return rudp::cli::runReport(s->args);
          }};
}

Command dissectorInferCommand(CLI::App& app) {
  auto s = std::make_shared<CommandState<rudp::cli::DissectorInferArgs>>();
  auto* dissector = app.add_subcommand("dissector", "Write a Lua dissector from a capture");
  dissector->require_subcommand(1);
  auto* infer = dissector->add_subcommand(
      "infer",
      "Write a Wireshark Lua dissector for the flow no dissector claims whose payloads carry a sequence "
      "counter (the one with the most packets; -Y picks others): its fields, port and contract block");
  addAnalysisOptions(infer, s->args.analysis);
  infer->add_option("-w,--output", s->args.output, "Lua file to write")->required()->type_name("FILE.lua");
  s->dissectors.emplace(infer, s->args.analysis.dissectors);
  return {infer, [s] {
            s->dissectors->resolve();
            return rudp::cli::runDissectorInfer(s->args);
          }};
}

Command wiresharkCommand(CLI::App& app) {
  auto args = std::make_shared<rudp::cli::WiresharkArgs>();
  return {addWiresharkCommand(app, *args), [args] { return rudp::cli::runWireshark(*args); }};
}

Command captureCommand(CLI::App& app) {
  auto s = std::make_shared<CommandState<rudp::cli::CaptureArgs>>();
  auto* capture = addCaptureCommand(app, s->args);
  s->dissectors.emplace(capture, s->args.analysis.dissectors);
  return {capture, [s] {
            s->dissectors->resolve();
            return rudp::cli::runCapture(s->args);
          }};
}

Command interfacesCommand(CLI::App& app) {
  auto json = std::make_shared<bool>(false);
  auto* interfaces = app.add_subcommand("interfaces", "List the interfaces capture can capture on");
  interfaces->add_flag("--json", *json, "Print the list as JSON");
  return {interfaces, [json] { return rudp::cli::runInterfaces(*json); }};
}

Command compareCommand(CLI::App& app) {
  auto s = std::make_shared<CommandState<rudp::cli::CompareArgs>>();
  auto* compare = addCompareCommand(app, s->args);
  s->dissectors.emplace(compare, s->args.analysis.dissectors);
  return {compare, [s] {
            s->dissectors->resolve();
            return rudp::cli::runCompare(s->args);
          }};
}

Command labCommand(CLI::App& app) {
  auto args = std::make_shared<rudp::cli::LabArgs>();
  return {rudp::cli::addLabCommand(app, *args), [args] { return rudp::cli::runLab(*args); }};
}

int run(int argc, char** argv) {
  CLI::App app{"rudpscope-cli: decode and analyse game reliable-UDP captures"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("rudpscope-cli ") + RUDPSCOPE_VERSION);
  // In --help's order.
  const std::vector<Command> commands{decodeCommand(app),         analyzeCommand(app),   reportCommand(app),
                                      dissectorInferCommand(app), wiresharkCommand(app), captureCommand(app),
                                      interfacesCommand(app),     compareCommand(app),   labCommand(app)};
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) { return app.exit(e); }

  try {
    for (const Command& c : commands)
      if (*c.parsed) return c.run();
    throw rudp::Error("no command given");  // require_subcommand(1) makes this unreachable
  } catch (const rudp::DamagedCaptureError& e) {
    std::fprintf(stderr,
                 "rudpscope-cli: %s; nothing was kept (--keep-damaged uses the %llu frames before it)\n",
                 e.what(), static_cast<unsigned long long>(e.frames_before));
    return 2;
  } catch (const rudp::Error& e) {
    std::fprintf(stderr, "rudpscope-cli: %s\n", e.what());
    return 2;
  }
}

}  // namespace

// Building the command line can throw too (std::bad_alloc, CLI11's own errors).
int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rudpscope-cli: internal error: %s\n", e.what());
    return 3;
  } catch (...) {
    std::fprintf(stderr, "rudpscope-cli: internal error\n");
    return 3;
  }
}
