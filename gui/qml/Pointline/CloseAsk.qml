import QtQuick
import QtQuick.Layouts
import QtQuick.Controls.Basic

// Closing the window mid-session asks first: a closed session is never resumed (the card rules
// out offline reload). Solo, Close records it in Stats as ended without a result; online it is
// the host's question (guests seated) or a guest's (a session running). Cancel or Escape keeps
// playing; "Close the app" closes the window, and the app. A session that is over, or
// untouched, closes at once. Its words are the bridge's (bridge.extras: closeText, closeHint).
TablePopup {
    required property var bridge  // the solo table's bridge (Main.qml passes it)
    id: closeOverlay
    objectName: "closeOverlay"
    property real gap: 8
    visible: bridge.extras.closeAsked
    title: "Close Pointline Table?"
    description: bridge.extras.closeText
    shade: "#d8061a10"
    width: Math.min(Overlay.overlay.width - gap * 2, fs * 30)

    // the window asks (Frame.qml's onClosing): this card shows the question of its screen
    Connections {
        target: bridge.extras
        function onCloseApproved() { closeOverlay.parent.Window.window.close(); }
    }
    onOpened: closeCancel.forceActiveFocus()
    onEscaped: bridge.escape()
    onMuteToggled: bridge.toggleMute()
    onClosed: giveBackFocus()

    ColumnLayout {
        id: closeCol
        anchors.fill: parent
        spacing: closeOverlay.gap
        Keys.onTabPressed: function(event) { (closeCancel.activeFocus ? closeConfirm : closeCancel).forceActiveFocus(); event.accepted = true; }
        Keys.onBacktabPressed: function(event) { (closeCancel.activeFocus ? closeConfirm : closeCancel).forceActiveFocus(); event.accepted = true; }
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
                hint: bridge.extras.closeHint
                onActivated: bridge.extras.confirmClose()
            }
        }
    }
}
