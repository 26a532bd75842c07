// Two analysis databases compared table by table, row by row, column by column.
#pragma once
#include <cstdint>
#include <map>
#include <set>
#include <string>

namespace rudp::test {

// REQUIREs that both databases have the same tables and that each, but those
// in `except`, holds the same rows in the same order. Returns the row count
// of each table compared.
std::map<std::string, uint64_t> requireSameTables(const std::string& dbA, const std::string& dbB,
                                                  const std::set<std::string>& except = {});

}  // namespace rudp::test
