import QtQuick
import QtQuick.Layouts
import QtQuick.Controls.Basic
import Pointline

// "How were these dice made?": the kernel's derivation trace of this throw in words (the
// nonces each seat committed and revealed, the seed, the blocks, each byte accepted or
// rejected, the two faces). Python writes every line; nothing is derived here.
Popup {
    id: panel
    required property var replay
    property real fs: 14
    modal: true
    focus: true
    padding: fs
    closePolicy: Popup.CloseOnEscape | Popup.CloseOnPressOutside
    onOpened: closeButton.forceActiveFocus()
    background: Rectangle { color: "#10261b"; border.color: "#d8b25a"; border.width: 2; radius: panel.fs * 0.6 }

    contentItem: ColumnLayout {
        spacing: panel.fs * 0.4
        Text {
            text: panel.replay.texts.howMade
            textFormat: Text.PlainText
            color: "#fdf6e3"
            font.pixelSize: panel.fs * 1.1
            font.bold: true
            Layout.fillWidth: true
            wrapMode: Text.Wrap
        }
        Text {
            text: panel.replay.throwTitle
            textFormat: Text.PlainText
            color: "#cfe3d6"
            font.pixelSize: panel.fs * 0.85
            Layout.fillWidth: true
            wrapMode: Text.Wrap
        }
        ListView {
            id: rows
            objectName: "replayDerivation"
            Layout.fillWidth: true
            Layout.fillHeight: true
            clip: true
            spacing: panel.fs * 0.25
            model: panel.replay.derivation
            activeFocusOnTab: true
            keyNavigationEnabled: true
            Accessible.role: Accessible.List
            Accessible.name: panel.replay.texts.howMade
            ScrollBar.vertical: ScrollBar {}
            delegate: Text {
                required property var modelData
                width: ListView.view.width - panel.fs
                text: modelData.text
                textFormat: Text.PlainText
                wrapMode: Text.Wrap
                color: modelData.kind === "dice" ? "#ffd479"
                       : modelData.kind === "rejected" ? "#ffb4a8" : "#fdf6e3"
                font.pixelSize: panel.fs * 0.8
                font.bold: modelData.kind === "dice"
                Accessible.role: Accessible.StaticText
                Accessible.name: text
            }
        }
        GameButton {
            id: closeButton
            objectName: "replayDiceClose"
            Layout.alignment: Qt.AlignRight
            Layout.preferredWidth: Math.max(96, panel.fs * 7)
            fs: panel.fs * 0.85
            text: panel.replay.texts.closePanel
            onActivated: panel.close()
        }
    }
}
