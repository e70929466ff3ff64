import QtQuick
import QtQuick.Layouts

// Help's way to the record and the guide: Stats of past sessions, and the guide again.
RowLayout {
    required property var bridge  // the solo table's bridge (Main.qml passes it)
    id: helpExtras
    property real fs: 14
    property real gap: 8
    Layout.fillWidth: true
    spacing: gap
    GameButton {
        objectName: "btnHelpStats"
        Layout.fillWidth: true
        fs: helpExtras.fs
        text: "Stats"
        hint: "Your finished sessions and their balance charts"
        onActivated: bridge.extras.openStats()
    }
    GameButton {
        objectName: "btnHelpGuide"
        Layout.fillWidth: true
        fs: helpExtras.fs
        text: "Show the guide"
        hint: "The short first-hand guide to the lines, Allocate, Confirm and Roll"
        onActivated: bridge.extras.openGuide()
    }
}
