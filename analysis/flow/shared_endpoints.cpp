#include "flow/shared_endpoints.h"

#include <algorithm>

namespace rudp {

size_t SharedEndpoints::Hash::operator()(const Endpoint& e) const {
  return static_cast<size_t>(hashEndpoint(e));
}

size_t SharedEndpoints::PairHash::operator()(const std::pair<Endpoint, Endpoint>& p) const {
  return static_cast<size_t>(hashEndpoint(p.second, hashEndpoint(p.first)));
}

void SharedEndpoints::add(const DecodedPacket& p) {
  if (p.l4 != L4::UDP && p.l4 != L4::TCP) return;
  const Endpoint src{p.src, p.sport}, dst{p.dst, p.dport};
  const int tcp = p.l4 == L4::TCP;
  const bool fromLower = src < dst;
  const auto [it, opened] =
      flows_[tcp].try_emplace({std::min(src, dst), std::max(src, dst)}, Flow{fromLower});
  Flow& f = it->second;
  if (opened || f.answered || f.opened_by_lower == fromLower) return;
  f.answered = true;
  uint32_t& n = openers_[tcp][src];  // the answering side: the one opened to
  n = std::min(n + 1, kManyPeers);
}

uint32_t SharedEndpoints::openers(const Endpoint& e, bool tcp) const {
  const auto& m = openers_[tcp];
  const auto it = m.find(e);
  return it == m.end() ? 0 : it->second;
}

}  // namespace rudp
