import QtQuick
import QtQuick.Layouts
import QtQuick.Controls.Basic

// Closing the window mid-session asks first: a closed session is never resumed (the card rules
// out offline reload). Solo, Close records it in Stats as ended without a result; online it is
// the host's question (guests seated) or a guest's (a session running). Cancel or Escape keeps
// playing; "Close the app" closes the window, and the app. A session that is over, or
// untouched, closes at once. The question is the window's one (gui/close_question.py, read as
// bridge.extras.closeQuestion): its state, its words (gui/texts.py CLOSE_WORDS) and its answers.
TablePopup {
    required property var bridge  // the screen's bridge (Main.qml, OnlineMain.qml pass it)
    readonly property var question: bridge.extras.closeQuestion
    id: closeOverlay
    objectName: "closeOverlay"
    property real gap: 8
    visible: question.asked
    title: question.words.title
    description: question.text
    shade: "#d8061a10"
    width: Math.min(Overlay.overlay.width - gap * 2, fs * 30)

    // the window asks (Frame.qml's onClosing) and closes it once approved: this card shows the
    // question on its screen
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
            text: closeOverlay.question.text
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
                text: bridge.mobile ? closeOverlay.question.words.keep : closeOverlay.question.words.keepKey
                hint: closeOverlay.question.words.keepHint
                onActivated: closeOverlay.question.cancel()
            }
            GameButton {
                id: closeConfirm
                objectName: "btnCloseConfirm"
                Layout.fillWidth: true
                fs: closeOverlay.fs
                primary: true
                text: closeOverlay.question.words.confirm
                hint: closeOverlay.question.hint
                onActivated: closeOverlay.question.confirm()
            }
        }
    }
}
