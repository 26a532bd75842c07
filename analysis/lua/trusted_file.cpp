#include "lua/trusted_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "core/error.h"
#include "core/privileges.h"
#include "core/unique_fd.h"

namespace rudp::lua {

namespace {

std::string ownerName(uid_t uid) {
  const std::string name = userName(uid);
  return "uid " + std::to_string(uid) + (name.empty() ? "" : " (" + name + ")");
}

// Why an unprivileged user may have written the file; empty when none can.
std::string untrustedReason(const struct stat& st) {
  if (st.st_uid != 0) return "it is owned by " + ownerName(st.st_uid);
  if (st.st_mode & S_IWOTH) return "everyone can write it";
  if ((st.st_mode & S_IWGRP) && st.st_gid != 0)
    return "its group (gid " + std::to_string(st.st_gid) + ") can write it";
  return {};
}

// The one line of a refusal: the file, the reason, and the rule with what makes it apply.
std::string refusal(const std::string& display, const std::string& reason) {
  return display + ": not loaded: " + reason + ", and this program runs with privileges (" + privilegeText() +
         "), so it loads only Lua files owned by root that no one else can write";
}

}  // namespace

std::string readLuaFile(const std::string& path, const std::string& display, bool privileged) {
  // Checked on the open descriptor, so the bytes read are those checked.
  const UniqueFd f(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!f.valid()) throw DissectorError(display + ": cannot read " + path + ": " + errnoMessage(errno));
  struct stat st {};
  if (::fstat(f.get(), &st) != 0 || !S_ISREG(st.st_mode))
    throw DissectorError(display + ": cannot read " + path + ": not a regular file");
  if (privileged)
    if (std::string why = untrustedReason(st); !why.empty()) throw DissectorError(refusal(display, why));
  std::string text;
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(f.get(), buf, sizeof buf);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      throw DissectorError(display + ": cannot read " + path + ": " + errnoMessage(errno));
    }
    text.append(buf, size_t(n));
  }
  return text;
}

}  // namespace rudp::lua
