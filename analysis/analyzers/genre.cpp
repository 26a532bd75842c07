#include "analyzers/genre.h"

namespace rudp::ana {

double genreStallMs(std::string_view g) {
  if (g == "fighting") return 30;
  if (g == "fps") return 50;
  if (g == "racing") return 50;
  if (g == "moba") return 150;
  if (g == "mmo") return 300;
  if (g == "turn-based" || g == "turn_based" || g == "turnbased") return 1000;
  if (g == "default") return 200;
  return -1;
}

std::optional<std::array<double, 3>> genreRttLimitsMs(std::string_view g) {
  using Limits = std::array<double, 3>;
  if (g == "fighting" || g == "fps" || g == "racing") return Limits{50, 100, 150};
  if (g == "moba" || g == "default") return Limits{150, 250, 300};
  if (g == "mmo") return Limits{150, 300, 500};
  if (g == "turn-based" || g == "turn_based" || g == "turnbased") return Limits{300, 1000, 2000};
  return std::nullopt;
}

}  // namespace rudp::ana
