#include "core/contract.h"

namespace rudp {

const char* toString(MessageClass c) {
  switch (c) {
    case MessageClass::Unreliable: return "unreliable";
    case MessageClass::UnreliableSequenced: return "unreliable sequenced";
    case MessageClass::Reliable: return "reliable";
    case MessageClass::ReliableOrdered: return "reliable ordered";
    case MessageClass::ReliableSequenced: return "reliable sequenced";
  }
  return "?";
}

}  // namespace rudp
