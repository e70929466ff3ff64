import QtQuick
import QtQuick.Layouts
import QtQuick.Controls.Basic

// Closing the window mid-session asks first: a closed session is never resumed (the card rules
// out offline reload). Close records it in Stats as ended without a result; Cancel or Escape
// keeps playing. A session that is over, or untouched, closes at once.
Rectangle {
    required property var bridge  // the solo table's bridge (Main.qml passes it)
    id: closeOverlay
    objectName: "closeOverlay"
    property real fs: 14
    property real gap: 8
    property Item returnTo: null
    anchors.fill: parent
    visible: bridge.extras.closeAsked
    color: "#d8061a10"

    Connections {
        target: closeOverlay.Window.window
        function onClosing(close) { if (bridge.extras.askClose()) close.accepted = false; }
    }
    Connections {
        target: bridge.extras
        function onCloseApproved() { closeOverlay.Window.window.close(); }
    }
    onVisibleChanged: {
        if (visible) {
            returnTo = Window.activeFocusItem;
            Qt.callLater(function() { closeCancel.forceActiveFocus(); });
        } else {
            // Back to where it was opened from once the table behind is enabled again; else
            // the window's own focus rules pick (Main.qml restores the table's focus).
            var back = returnTo;
            returnTo = null;
            Qt.callLater(function() {
                if (back && back.visible && back.enabled) back.forceActiveFocus();
                else Window.contentItem.forceActiveFocus();
            });
        }
    }
    Keys.onTabPressed: function(event) { (closeCancel.activeFocus ? closeConfirm : closeCancel).forceActiveFocus(); event.accepted = true; }
    Keys.onBacktabPressed: function(event) { (closeCancel.activeFocus ? closeConfirm : closeCancel).forceActiveFocus(); event.accepted = true; }

    MouseArea { objectName: "blockerClose"; anchors.fill: parent; acceptedButtons: Qt.AllButtons; onWheel: function(w) { w.accepted = true } }
    Rectangle {
        anchors.centerIn: parent
        width: Math.min(parent.width - closeOverlay.gap * 2, closeOverlay.fs * 30)
        height: closeCol.implicitHeight + closeOverlay.gap * 2
        radius: closeOverlay.fs * 0.6
        color: "#123d2b"
        border.color: "#f2c14e"
        border.width: 2
        Accessible.role: Accessible.Dialog
        Accessible.name: "Close Pointline Table?"
        Accessible.description: bridge.extras.closeText
        ColumnLayout {
            id: closeCol
            anchors.fill: parent
            anchors.margins: closeOverlay.gap
            spacing: closeOverlay.gap
            Text {
                objectName: "closeText"
                Layout.fillWidth: true
                text: bridge.extras.closeText
                wrapMode: Text.WordWrap
                color: "#fdf6e3"
                font.pixelSize: closeOverlay.fs
                Accessible.role: Accessible.StaticText
                Accessible.name: text
            }
            RowLayout {
                Layout.fillWidth: true
                spacing: closeOverlay.gap
                GameButton {
                    id: closeCancel
                    objectName: "btnCloseCancel"
                    Layout.fillWidth: true
                    fs: closeOverlay.fs
                    text: bridge.mobile ? "Keep playing" : "Keep playing (Esc)"
                    hint: "Cancel: the session goes on as it was"
                    onActivated: bridge.extras.cancelClose()
                }
                GameButton {
                    id: closeConfirm
                    objectName: "btnCloseConfirm"
                    Layout.fillWidth: true
                    fs: closeOverlay.fs
                    primary: true
                    text: "Close the app"
                    hint: "End this session and close; it is kept in Stats"
                    onActivated: bridge.extras.confirmClose()
                }
            }
        }
    }
}
