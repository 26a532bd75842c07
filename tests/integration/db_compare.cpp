#include "db_compare.h"

#include <sqlite3.h>

#include <catch2/catch.hpp>

#include "store/sqlite.h"

namespace rudp::test {

namespace {

std::set<std::string> tablesOf(sql::Database& db) {
  std::set<std::string> names;
  sql::Statement st(db, "SELECT name FROM sqlite_master WHERE type = 'table'");
  while (st.step()) names.insert(st.text(0));
  return names;
}

uint64_t requireSameRows(sql::Database& one, sql::Database& two, const std::string& table) {
  INFO(table);
  const std::string q = "SELECT * FROM " + table;
  sql::Statement a(one, q.c_str()), b(two, q.c_str());
  uint64_t rows = 0;
  for (;;) {
    const bool ra = a.step(), rb = b.step();
    REQUIRE(ra == rb);
    if (!ra) break;
    ++rows;
    for (int i = 0; i < sqlite3_column_count(a.handle()); ++i) REQUIRE(a.text(i) == b.text(i));
  }
  return rows;
}

}  // namespace

std::map<std::string, uint64_t> requireSameTables(const std::string& dbA, const std::string& dbB,
                                                  const std::set<std::string>& except) {
  sql::Database one(dbA, sql::Database::Mode::ReadOnly);
  sql::Database two(dbB, sql::Database::Mode::ReadOnly);
  const std::set<std::string> tables = tablesOf(one);
  REQUIRE(tables == tablesOf(two));
  std::map<std::string, uint64_t> rows;
  for (const std::string& t : tables)
    if (!except.count(t)) rows[t] = requireSameRows(one, two, t);
  return rows;
}

}  // namespace rudp::test
