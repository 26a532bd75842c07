// Help > rudpscope Help (the keys and where things are) and Help > About.
#pragma once

class QWidget;

namespace rudp::gui {

void showHelpDialog(QWidget* parent);
void showAboutDialog(QWidget* parent);

}  // namespace rudp::gui
