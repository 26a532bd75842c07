// The matrix as an SVG chart for the comparison page: one panel per panel
// value side by side, the metric against the x label, one coloured line per
// group with a marked point per capture (its <title> names the capture).
#pragma once
#include <string>

#include "compare/matrix.h"

namespace rudp::cmp {

// Colour of the i-th group (the GUI draws its lines in the same colours).
const char* groupColour(size_t i);

std::string matrixSvg(const Matrix& matrix, double width = 960, double panelHeight = 300);

}  // namespace rudp::cmp
