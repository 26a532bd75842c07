// `rudpscope-cli decode CAPTURE -Y FILTER -e frame.number` selects exactly the
// frames `tshark -Y FILTER -T fields -e frame.number` (4.0) selects, with the
// shipped dissectors: every filter of data/display_filters.txt on all
// committed captures merged into one file (absent and repeated fields,
// value strings, bitmasks, addresses, subnets, times, contains/matches,
// precedence, arithmetic), a sample of them on each capture alone, and a bad
// filter fails with one line on stderr and no output, as tshark refuses it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>
#include <thread>

#include "process.h"
#include "store/store_reader.h"
#include "tshark_compare.h"

using namespace rudp::test;
namespace fs = std::filesystem;

namespace {

const char* const kFilterFile = RUDPSCOPE_SOURCE_DIR "/tests/integration/data/display_filters.txt";

// One filter a line; blank lines and lines starting with # are skipped.
std::vector<std::string> readFilters() {
  std::ifstream in(kFilterFile);
  REQUIRE(in);
  std::vector<std::string> filters;
  for (std::string line; std::getline(in, line);) {
    const auto begin = line.find_first_not_of(" \t\r");
    if (begin == std::string::npos || line[begin] == '#') continue;
    filters.push_back(line.substr(begin, line.find_last_not_of(" \t\r") - begin + 1));
  }
  return filters;
}

// Every committed capture, one after the other (mergecap -a), in one pcapng file.
std::string mergeCaptures(const TempDir& dir) {
  const std::string merged = dir / "merged.pcapng";
  std::vector<std::string> argv = {MERGECAP_EXECUTABLE, "-F", "pcapng", "-a", "-w", merged};
  const auto caps = committedCaptures();
  argv.insert(argv.end(), caps.begin(), caps.end());
  const ProcessResult r = run(argv);
  INFO("mergecap stderr: " << r.err);
  REQUIRE(r.status == 0);
  return merged;
}

std::vector<std::string> tsharkArgs(const std::string& capture, const std::string& filter) {
  std::vector<std::string> a = {TSHARK_EXECUTABLE, "-n", "-r", capture};
  a.insert(a.end(), {"-o", "tcp.relative_sequence_numbers:FALSE"});
  for (const auto& arg : tsharkDissectorArgs()) a.push_back(arg);
  a.insert(a.end(), {"-Y", filter, "-T", "fields", "-e", "frame.number"});
  return a;
}

// The file's filters name raw sequence numbers: both programs with them.
std::vector<std::string> oursArgs(const std::string& capture, const std::string& filter) {
  return {RUDPSCOPE_CLI, "decode", capture, "-o",          "tcp.relative_sequence_numbers:FALSE",
          "-Y",          filter,   "-e",    "frame.number"};
}

// Frame numbers in numeric order (shorter first, then by digits).
bool frameLess(const std::string& a, const std::string& b) {
  return a.size() != b.size() ? a.size() < b.size() : a < b;
}

// The first `n` frames of `a` that `b` lacks, comma-separated.
std::string missingFrom(std::vector<std::string> a, std::vector<std::string> b, size_t n) {
  std::sort(a.begin(), a.end(), frameLess);
  std::sort(b.begin(), b.end(), frameLess);
  std::vector<std::string> diff;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(diff), frameLess);
  std::ostringstream s;
  for (size_t i = 0; i < std::min(n, diff.size()); ++i) s << (i ? ", " : "") << diff[i];
  if (diff.size() > n) s << ", ... (" << diff.size() << " in all)";
  return s.str();
}

// Checks that both programs exited 0 and printed the same frame numbers for
// `filter`. Returns the number of frames tshark printed.
size_t checkSame(const std::string& capture, const std::string& filter, const ProcessResult& t,
                 const ProcessResult& o) {
  INFO("filter: " << filter << "\ncapture: " << capture << "\ntshark stderr: " << t.err
                  << "\nrudpscope stderr: " << o.err);
  CHECK(t.status == 0);
  CHECK(o.status == 0);
  const auto tl = splitLines(t.out), ol = splitLines(o.out);
  if (ol != tl) {
    INFO("tshark " << tl.size() << " frames, rudpscope " << ol.size());
    const std::string onlyTshark = missingFrom(tl, ol, 8), onlyOurs = missingFrom(ol, tl, 8);
    CHECK(onlyTshark == "");
    CHECK(onlyOurs == "");
    if (onlyTshark.empty() && onlyOurs.empty()) CHECK(ol == tl);  // the same frames, another order
  }
  return tl.size();
}

// tshark spends about 2 s on one core per filter on the merged file, 0.3 s
// starting on a small one: several filters run at a time.
size_t parallelRuns() { return std::clamp<size_t>(std::thread::hardware_concurrency(), 2, 4); }

struct Pending {
  std::string filter;
  std::unique_ptr<Background> tshark, ours;
};

// Runs both programs with -Y for each filter on `capture`, parallelRuns()
// filters at a time, and compares them. Returns tshark's frame counts.
std::vector<size_t> compareFilters(const std::string& capture, const std::vector<std::string>& filters) {
  std::vector<size_t> counts;
  for (size_t i = 0; i < filters.size(); i += parallelRuns()) {
    std::vector<Pending> wave;
    for (size_t j = i; j < std::min(i + parallelRuns(), filters.size()); ++j)
      wave.push_back({filters[j], std::make_unique<Background>(tsharkArgs(capture, filters[j])),
                      std::make_unique<Background>(oursArgs(capture, filters[j]))});
    for (Pending& p : wave) counts.push_back(checkSame(capture, p.filter, p.tshark->wait(), p.ours->wait()));
  }
  return counts;
}

// The filters checked on each capture alone: every ninth of the file, and
// `data` (in the merged file the link captures' TCP stream repeats, and
// tshark hands the repeated segments, retransmissions to its TCP analysis,
// to no data dissector; alone, they are data).
std::vector<std::string> perCaptureFilters() {
  const auto all = readFilters();
  std::vector<std::string> some;
  for (size_t i = 0; i < all.size(); i += 9) some.push_back(all[i]);
  some.push_back("data");
  return some;
}

// Filters tshark 4.0 refuses: an unknown field, a missing operand, an open
// parenthesis, a string for an integer, a set without commas (4.0 needs
// them), a bad number, a name no value string has, xor (not in 4.0), a label
// (FT_NONE) compared with a value; arithmetic on an address, a MAC address,
// a string field, a quoted string, a Boolean, a time multiplied, a value
// first on the left, a '-' inside a word (one name), a set test or () on
// arithmetic, a value out of the left field's range.
const char* const kRefused[] = {"foo.bar",
                                "udp.port ==",
                                "(udp",
                                "udp.port > \"abc\"",
                                "ip.src in {10.0.0.1 10.0.0.2}",
                                "udp.srcport == 9999x",
                                "grudp.type == NOPE",
                                "udp ^^ tcp",
                                "tcp.analysis.flags == 1",
                                "ip.src + 1 == 1",
                                "eth.src - eth.dst",
                                "kcp.framing * 2 == 4",
                                "frame.len + \"a\" == 1",
                                "tcp.flags.syn + 1 == 2",
                                "frame.time_relative * 2 > 2",
                                "1 + 2 == 3",
                                "frame.len-1 == 59",
                                "udp.length * 2 in {100}",
                                "(frame.len + 1) * 2 > 3",
                                "udp.srcport * 1000 > 70000"};

}  // namespace

TEST_CASE("decode -Y selects tshark's frames for every filter of display_filters.txt, captures merged") {
  TempDir dir("display-filters");
  const std::string merged = mergeCaptures(dir);
  const auto filters = readFilters();
  REQUIRE(filters.size() >= 60);
  const size_t total = compareFilters(merged, {"frame"}).front();
  REQUIRE(total > 10000);
  const auto start = std::chrono::steady_clock::now();
  const auto counts = compareFilters(merged, filters);
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  WARN(filters.size() << " filters on " << total << " frames took " << took.count() << " s, "
                      << parallelRuns() << " at a time");
  // Most filters select some frames but not all, so they tell frames apart.
  CHECK(std::count_if(counts.begin(), counts.end(), [&](size_t n) { return n > 0 && n < total; }) >= 50);
}

TEST_CASE("decode -Y selects tshark's frames on each committed capture alone") {
  const auto captures = committedCaptures();
  REQUIRE(captures.size() >= 20);
  const auto filters = perCaptureFilters();
  REQUIRE(filters.size() >= 10);
  for (const std::string& c : captures) compareFilters(c, filters);
}

TEST_CASE("decode -Y with a filter tshark refuses fails in one line on stderr and prints nothing") {
  const std::string sample = RUDPSCOPE_SOURCE_DIR "/resources/sample.pcap";
  for (const char* bad : kRefused) {
    INFO("filter: " << bad);
    CHECK(run(tsharkArgs(sample, bad)).status != 0);
    const ProcessResult r = run(oursArgs(sample, bad));
    INFO("rudpscope stderr: " << r.err);
    CHECK(r.status != 0);
    CHECK(r.out.empty());
    CHECK(splitLines(r.err).size() == 1);
  }
}

TEST_CASE("analyze -Y stores exactly the frames tshark -Y selects, captures merged") {
  TempDir dir("analyze-filters");
  const std::string merged = mergeCaptures(dir);
  for (const std::string filter :
       {"udp matches \"\\x52\\x55\"", "kcp.cmd == PUSH && kcp.sn > 10", "data.len > 100 || tcp.flags.syn",
        "not udp.port in {7777, 40000}", "eth.dst == 0200.0a00.0101",
        "frame.time_delta_displayed >= 0.05 || frame.number == 1"}) {
    INFO("filter: " << filter);
    const std::string db = dir / "filtered.sqlite";
    const ProcessResult a = run({RUDPSCOPE_CLI, "analyze", merged, "--db", db, "-q", "-Y", filter});
    INFO(a.err);
    REQUIRE(a.status == 0);
    const ProcessResult t = run(tsharkArgs(merged, filter));
    REQUIRE(t.status == 0);
    std::vector<std::string> stored;
    rudp::StoreReader(db).forEachPacket(
        {}, [&](const rudp::PacketRecord& p) { stored.push_back(std::to_string(p.frame)); });
    const std::vector<std::string> expected = splitLines(t.out);
    CHECK(stored.size() == expected.size());
    CHECK(stored == expected);
  }
}
