// Errors the core raises. Every message is one line meant for the user.
#pragma once
#include <stdexcept>
#include <string>
#include <system_error>

namespace rudp {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class CaptureError : public Error {
  using Error::Error;
};
class DissectorError : public Error {
  using Error::Error;
};
class StoreError : public Error {
  using Error::Error;
};
// errno as text, thread-safe (std::strerror is not).
inline std::string errnoMessage(int err) { return std::generic_category().message(err); }

class Cancelled : public Error {
 public:
  Cancelled() : Error("cancelled") {}
};

}  // namespace rudp
