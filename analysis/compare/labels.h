// Labels of a capture in a comparison (stack, loss, delay, ...) and the
// capture set a folder names.
//
// Labels come from, in increasing precedence:
//   1. the file name: "tcp-cubic_loss5_delay50.pcap" is split at '_' into
//      stack=tcp-cubic, loss=5, delay=50 (a token of letters followed by a
//      number is KEY+NUMBER, "key=value" is itself, the first other token is
//      the stack, later ones are ignored);
//   2. a sidecar file beside the capture, CAPTURE.labels (for example
//      "game.pcap.labels"), holding "loss=5 delay=50 stack=tcp-cubic"
//      (KEY=VALUE separated by blanks or new lines, '#' starts a comment);
//   3. labels the user gives (--label KEY=VALUE).
#pragma once
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace rudp::cmp {

using Labels = std::map<std::string, std::string>;

// A bad sidecar, label, folder or metric name: one line for the user.
class CompareError : public Error {
  using Error::Error;
};

Labels labelsFromFileName(std::string_view path);
// Throws CompareError naming the file and the bad token.
Labels sidecarLabels(const std::string& capturePath);
// "KEY=VALUE" (from --label); throws CompareError otherwise.
std::pair<std::string, std::string> parseLabel(std::string_view keyValue);
Labels captureLabels(const std::string& capturePath, const Labels& overrides = {});
// "loss=5 delay=50 stack=tcp" (what a sidecar file holds, and how a label set is shown).
std::string labelText(const Labels& labels);

// The captures named by `paths`: a file stands for itself, a folder for the
// captures in it (*.pcap, *.pcapng, *.cap, not recursive), sorted by name
// with numbers in numeric order (loss5 before loss10).
// Throws CompareError for a missing path or a folder with no capture.
std::vector<std::string> expandCaptureSet(const std::vector<std::string>& paths);

}  // namespace rudp::cmp
