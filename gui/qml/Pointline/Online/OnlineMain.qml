import QtQuick
import QtQuick.Layouts
import QtQuick.Controls.Basic
import Pointline

// The online app: sign in -> lobby -> the shared-dice table -> results. Help stays live.
ApplicationWindow {
    id: root
    width: 1280
    height: 720
    visible: true
    title: "Pointline Table — online"
    color: "#0b2e20"

    readonly property bool portrait: height > width
    readonly property real fs: Math.max(12, Math.min(24, Math.min(width / 70, height / 30)))
    readonly property real gap: Math.max(6, fs * 0.5)
    readonly property string screen: online.screen
    readonly property var screens: ["signin", "lobby", "table", "results"]
    readonly property string hintText: "Arrows choose the line · Tab visits legal buttons · Space allocates, Enter confirms; Enter/Space roll at the point · Backspace/Delete reset · F1 Help (the countdown keeps running) · M mute. Going to the background ends the session for everyone."

    function current() {
        return [signin, lobby, table, results][Math.max(0, screens.indexOf(screen))];
    }
    function restoreFocus() {
        if (online.helpOpen) { helpClose.forceActiveFocus(); return; }
        var it = root.activeFocusItem;
        if (it !== null && it !== undefined && it.visible && it.enabled && it !== root.contentItem) return;
        current().focusFirst();
    }
    onScreenChanged: Qt.callLater(function() { current().focusFirst(); })
    readonly property bool helpOpen: online.helpOpen
    onHelpOpenChanged: Qt.callLater(function() {
        if (online.helpOpen) helpClose.forceActiveFocus(); else current().focusFirst();
    })
    onActiveFocusItemChanged: Qt.callLater(root.restoreFocus)
    Component.onCompleted: Qt.callLater(function() { current().focusFirst(); })

    readonly property string announcement: online.announcement
    onAnnouncementChanged: { try { liveRegion.Accessible.announce(announcement); } catch (e) { } }

    readonly property bool atTable: screen === "table"
    Shortcut { sequence: "F1"; onActivated: online.openHelp() }
    Shortcut { sequence: "Escape"; onActivated: online.escape() }
    Shortcut { sequence: "M"; enabled: root.atTable || screen === "results"; onActivated: online.toggleMute() }
    Shortcut { sequences: ["Backspace", "Delete"]; enabled: root.atTable && !online.helpOpen; onActivated: online.reset() }
    Shortcut {
        sequences: ["Up", "Left"]; enabled: root.atTable && !online.helpOpen
        onActivated: { online.selectLine("pass"); table.tableArea.forceActiveFocus(); }
    }
    Shortcut {
        sequences: ["Down", "Right"]; enabled: root.atTable && !online.helpOpen
        onActivated: { online.selectLine("dont_pass"); table.tableArea.forceActiveFocus(); }
    }

    ColumnLayout {
        anchors.fill: parent
        anchors.margins: root.gap
        spacing: root.gap
        enabled: !online.helpOpen

        GridLayout {
            objectName: "onlineHeader"
            Layout.fillWidth: true
            columns: root.portrait ? 1 : 2
            rowSpacing: 2
            Text {
                text: "Pointline Table · online"
                font.family: "DejaVu Serif"
                font.pixelSize: root.fs * 1.35
                font.bold: true
                color: "#f2c14e"
                Accessible.role: Accessible.Heading
                Accessible.name: text
            }
            Text {
                id: liveRegion
                objectName: "onlineStats"
                Layout.fillWidth: true
                horizontalAlignment: root.portrait ? Text.AlignLeft : Text.AlignRight
                text: root.atTable
                      ? "Balance <b>" + online.balance.toLocaleString(Qt.locale("en_US"), "f", 0) + "</b> · Hand <b>" + online.hand + "/" + online.hands
                        + "</b> · Throw <b>" + online.throws + "/" + online.throwCap + "</b>"
                      : (online.name.length > 0 ? "Signed in as <b>" + online.name + "</b>" + (online.roomCode.length > 0 ? " · room <b>" + online.roomCode + "</b>" : "") : "Not signed in")
                textFormat: Text.StyledText
                font.pixelSize: root.fs
                color: "#fdf6e3"
                elide: Text.ElideRight
                Accessible.role: Accessible.StaticText
                Accessible.name: root.atTable ? "Balance " + online.balance + ", hand " + online.hand + " of " + online.hands + ", throw " + online.throws + " of " + online.throwCap
                                              : text.replace(/<[^>]*>/g, "")
            }
        }

        StackLayout {
            id: stack
            Layout.fillWidth: true
            Layout.fillHeight: true
            currentIndex: Math.max(0, root.screens.indexOf(root.screen))
            OnlineSignIn { id: signin; objectName: "screenSignIn"; fs: root.fs; gap: root.gap }
            OnlineLobby { id: lobby; objectName: "screenLobby"; fs: root.fs; gap: root.gap }
            OnlineTable { id: table; objectName: "screenTable"; fs: root.fs; gap: root.gap }
            OnlineResults { id: results; objectName: "screenResults"; fs: root.fs; gap: root.gap }
        }

        Text {
            objectName: "onlineFooter"
            Layout.fillWidth: true
            text: "<b><font color='#f2c14e'>" + online.freeText + "</font></b> — " + online.casualNotice + " " + root.hintText
            textFormat: Text.StyledText
            wrapMode: Text.WordWrap
            font.pixelSize: Math.max(10.5, root.fs * 0.7)
            color: "#d5e6dc"
            Accessible.role: Accessible.StaticText
            Accessible.name: online.freeText + ". " + online.casualNotice + " " + root.hintText
        }
    }

    // ------------------------------------------------------------ help (never pauses online)
    Rectangle {
        id: helpOverlay
        objectName: "onlineHelp"
        anchors.fill: parent
        visible: online.helpOpen
        color: "#d8061a10"
        MouseArea { anchors.fill: parent; acceptedButtons: Qt.AllButtons; onWheel: function(w) { w.accepted = true } }
        Rectangle {
            anchors.centerIn: parent
            width: Math.min(parent.width - root.gap * 2, root.fs * 46)
            height: parent.height - root.gap * 2
            radius: root.fs * 0.6
            color: "#123d2b"
            border.color: "#f2c14e"
            border.width: 2
            ColumnLayout {
                anchors.fill: parent
                anchors.margins: root.gap
                spacing: root.gap * 0.6
                Text {
                    Layout.fillWidth: true
                    text: root.atTable && online.secondsLeft > 0
                          ? "Help — the countdown keeps running: " + online.secondsLeft + " s left"
                          : "Help — online play"
                    font.family: "DejaVu Serif"
                    font.pixelSize: root.fs * 1.2
                    font.bold: true
                    color: "#f2c14e"
                    wrapMode: Text.WordWrap
                    Accessible.role: Accessible.Heading
                    Accessible.name: text
                }
                Flickable {
                    id: helpFlick
                    Layout.fillWidth: true
                    Layout.fillHeight: true
                    clip: true
                    contentHeight: helpText.implicitHeight
                    boundsBehavior: Flickable.StopAtBounds
                    ScrollBar.vertical: ScrollBar { }
                    Text {
                        id: helpText
                        width: helpFlick.width - 10
                        wrapMode: Text.WordWrap
                        textFormat: Text.StyledText
                        color: "#fdf6e3"
                        font.pixelSize: root.fs * 0.9
                        Accessible.role: Accessible.StaticText
                        Accessible.name: "Online rules and keys"
                        text: "<b>Online:</b> 2 to 8 people, each signed in on their own account and device, share the same dice. Each throw every seat commits its choice with a fresh secret; then everyone reveals, every app checks every reveal and derives the dice from all of them. Nobody deals, the relay only forwards signed messages.<br><br>"
                            + "<b>Deadlines:</b> 45 s to confirm or roll each throw, 10 s for other answers, 10 minutes for the session, 8 s for the signed receipts. A missed deadline, a departure, an app going to the background or a bad message ends the session for everyone without a result; the hand in flight is voided.<br><br>"
                            + "<b>Rules:</b> as solo. Come-out: Pass wins on 7 or 11 and loses on 2, 3 or 12; Don’t Pass wins on 2 or 3, loses on 7 or 11, pushes on 12; 4, 5, 6, 8, 9, 10 set the point. Point phase: Pass is locked; Don’t Pass may be reduced by 10 or removed, refunded with no profit when you roll. Five resolved hands; at most 128 throws.<br><br>"
                            + "<b>Verification words:</b> four words from each member’s session key; read them out loud before the start.<br><br>"
                            + "<b>Keys:</b> Arrows select the line · Tab / Shift+Tab visit legal buttons · Space allocates, Enter confirms at come-out; Enter or Space roll at the point · Backspace/Delete reset · Escape closes Help (online nothing pauses) · F1 Help · M mute.<br><br>"
                            + online.casualNotice + " Free fictional points only: no money, purchases or prizes."
                    }
                }
                GameButton {
                    id: helpClose
                    objectName: "btnHelpClose"
                    Layout.alignment: Qt.AlignRight
                    Layout.preferredWidth: root.fs * 10
                    fs: root.fs
                    primary: true
                    text: "Close (Esc)"
                    hint: "Close Help and return"
                    onActivated: online.closeHelp()
                }
            }
        }
    }
}
