// A thin RAII layer over the SQLite C API (Debian's libsqlite3).
#pragma once
#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rudp::sql {

class Statement;

class Database {
 public:
  enum class Mode { ReadOnly, ReadWriteCreate };
  Database(const std::string& path, Mode mode);  // throws StoreError
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  void exec(const char* sql);  // throws StoreError naming the file and SQLite's message
  sqlite3* handle() const { return db_; }
  const std::string& path() const { return path_; }
  [[noreturn]] void fail(const std::string& what) const;

 private:
  sqlite3* db_ = nullptr;
  std::string path_;
};

class Statement {
 public:
  Statement(Database& db, const char* sql);
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(int i, int64_t v);
  Statement& bind(int i, double v);
  Statement& bind(int i, std::string_view v);
  Statement& bindNull(int i);
  Statement& bindBlob(int i, std::string_view v);
  template <class T>
  Statement& bind(int i, const std::optional<T>& v) {
    return v ? bind(i, *v) : bindNull(i);
  }

  bool step();  // true while a row is available
  void run();   // step to completion, then reset
  void reset();

  int64_t int64(int col) const { return sqlite3_column_int64(st_, col); }
  double real(int col) const { return sqlite3_column_double(st_, col); }
  bool isNull(int col) const { return sqlite3_column_type(st_, col) == SQLITE_NULL; }
  std::string text(int col) const;
  // Valid until the next step or reset.
  std::string_view blob(int col) const {
    const void* p = sqlite3_column_blob(st_, col);
    return {static_cast<const char*>(p), static_cast<size_t>(sqlite3_column_bytes(st_, col))};
  }
  sqlite3_stmt* handle() const { return st_; }

 private:
  Database& db_;
  sqlite3_stmt* st_ = nullptr;
};

}  // namespace rudp::sql
