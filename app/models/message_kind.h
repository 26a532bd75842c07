// How serious a message to the user is (the banner's colour): shared by the
// jobs that report and the banner that shows their messages.
#pragma once

namespace rudp::gui {

enum class MessageKind { Information, Warning, Error };

}  // namespace rudp::gui
