// The latency budgets of game genres (fighting/FPS 5-50 ms, MOBA 150-250 ms,
// MMO up to 300 ms, turn-based up to 1 s): the presets `--genre` and the
// window's Settings offer.
#pragma once
#include <array>
#include <optional>
#include <string_view>

namespace rudp::ana {

// Stall threshold of a genre preset (fighting 30, fps 50, racing 50, moba 150,
// mmo 300, turn-based 1000); a negative value for an unknown name.
double genreStallMs(std::string_view genre);
// The response-time limits a genre is judged by (fighting, fps, racing 50/100/150;
// moba 150/250/300: stutter, unfair, late; mmo 150/300/500; turn-based
// 300/1000/2000; default 150/250/300); nullopt for an unknown name.
std::optional<std::array<double, 3>> genreRttLimitsMs(std::string_view genre);

}  // namespace rudp::ana
