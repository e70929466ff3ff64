import QtQuick
import QtQuick.Layouts

// The window-mode button of every screen (none on a phone): ``owner`` is the window's bridge
// (windowMode, mobile, cycleWindowMode()), the solo table's or the online one.
GameButton {
    required property var owner
    objectName: "btnWindow"
    Layout.fillWidth: true
    visible: !owner.mobile
    text: owner.windowMode === "standard" ? "Window: Standard"
          : owner.windowMode === "theater" ? "Window: Theater" : "Window: Full screen"
    hint: "Switch Standard, Theater and Full screen; the session is kept"
    onActivated: owner.cycleWindowMode()
}
