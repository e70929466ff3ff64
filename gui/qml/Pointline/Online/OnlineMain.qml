import QtQuick
import QtQuick.Layouts
import QtQuick.Controls.Basic
import Pointline
import Pointline.Online

// The online screens of the one window (Frame.qml): sign in -> lobby -> the shared-dice
// table -> results. Help stays live. They cover the solo table; a replay may cover them.
FocusScope {
    id: root
    objectName: "onlineRoot"
    required property OnlineBridge online  // the frame hands it over (Frame.place)
    property bool onTop: true  // the frame's screen on top (Frame.qml binds it)
    readonly property var window: root.Window.window
    // Closing the window: the frame asks (Frame.qml's onClosing, on online.extras: the Host)
    // and CloseAsk below shows the question; closing after all leaves the table first.

    readonly property bool portrait: height > width
    // the balance counts to its new value in the result moment (at once under Reduce motion)
    property int shownBalance: online.seatTable.balance
    Behavior on shownBalance {
        enabled: !online.moment.reduceMotion
        NumberAnimation { duration: 550; easing.type: Easing.OutCubic }
    }
    // the footer's key hints: while the close question is open its keys, in solo's words (the
    // question's: Esc keeps playing); else in a few words when the window is as narrow as a phone
    readonly property Item focusedButton: root.window && root.window.activeFocusItem && root.window.activeFocusItem.tableControl === true ? root.window.activeFocusItem : null
    readonly property string keysText: online.mobile ? ""
        : closeCard.visible ? online.extras.closeQuestion.keys(focusedButton ? (focusedButton.Accessible.name || focusedButton.text) : "")
        : width < 1100 ? online.keyHintsShort : online.keyHints
    // the system's text size (online.fontScale) scales every text of the screens
    readonly property real fs: (online.fontScale || 1) * Math.max(12, Math.min(24, Math.min(width / 70, height / 30)))
    // (a small phone at a larger text size: the least gaps, the room goes to the table's lines)
    readonly property bool small: online.mobile && (online.fontScale || 1) > 1.15 && Math.max(width, height) < 700
    readonly property real gap: small ? 6 : Math.max(6, fs * 0.5)
    // no text on a phone under 11 pt (logical pixels): each screen's small texts keep this floor
    readonly property real minText: online.mobile ? 11 : 0
    // a share of the type size, never under minText: the one rule the four screens size their
    // small texts by (each is handed it as its px)
    function px(share) { return Math.max(root.minText, root.fs * share); }
    // Safe-area insets (notch, home indicator, Android edge-to-edge), or faked ones in tests.
    readonly property real insetTop: Math.max(SafeArea.margins.top, online.insets.top || 0)
    readonly property real insetBottom: Math.max(SafeArea.margins.bottom, online.insets.bottom || 0)
    readonly property real insetLeft: Math.max(SafeArea.margins.left, online.insets.left || 0)
    readonly property real insetRight: Math.max(SafeArea.margins.right, online.insets.right || 0)
    readonly property string screen: online.screen
    readonly property var screens: ["signin", "lobby", "table", "results"]

    // ------------------------------------------------------------ window modes (session kept)

    function current() {
        return [signin, lobby, table, results][Math.max(0, screens.indexOf(screen))];
    }
    function restoreFocus() {
        if (online.helpOpen) {
            if (root.window.activeFocusItem !== helpClose && root.window.activeFocusItem !== motionButton) helpClose.forceActiveFocus();
            return;
        }
        if (online.askingLeave) {
            if (root.window.activeFocusItem !== stayButton && root.window.activeFocusItem !== leaveConfirm) stayButton.forceActiveFocus();
            return;
        }
        if (!root.onTop || !root.window) return;
        var it = root.window.activeFocusItem;
        if (it !== null && it !== undefined && it.visible && it.enabled && it !== root.window.contentItem) return;
        current().focusFirst();
    }
    // The words that come with a new screen go out after its focus event (Announcer.hold).
    onScreenChanged: {
        if (root.window && root.window.holdWords) root.window.holdWords();
        Qt.callLater(function() {
            current().focusFirst();
            if (root.window && root.window.releaseWords) root.window.releaseWords();
        });
    }
    readonly property bool helpOpen: online.helpOpen
    onHelpOpenChanged: Qt.callLater(function() {
        if (online.helpOpen) helpClose.forceActiveFocus(); else current().focusFirst();
    })
    readonly property bool askingLeave: online.askingLeave
    onAskingLeaveChanged: Qt.callLater(function() {
        if (online.askingLeave) stayButton.forceActiveFocus(); else root.restoreFocus();
    })
    Connections {
        target: root.window
        function onActiveFocusItemChanged() { Qt.callLater(root.restoreFocus); }
    }
    Component.onCompleted: Qt.callLater(function() { current().focusFirst(); })
    // The frame shows these screens again (after a replay): the screen's first control.
    function focusFirst() { root.restoreFocus(); }
    // The focus policy: a click at the table gives the keys back to the table (Enter confirms
    // or rolls); elsewhere the screen's fields keep theirs.
    function pointerUsed(button) {
        Qt.callLater(function() {
            if (root.onTop && root.atTable && !online.helpOpen && !online.askingLeave && !table.sheetOpen)
                table.tableArea.forceActiveFocus();
        });
    }

    readonly property string announcement: online.seatTable.announcement
    onAnnouncementChanged: root.window.announce(announcement)

    readonly property bool atTable: screen === "table"
    readonly property bool countdownUp: root.atTable && table.countdownUp
    Shortcut { sequence: "F1"; autoRepeat: false; enabled: root.onTop; onActivated: online.openHelp() }
    Shortcut { sequence: "Escape"; autoRepeat: false; enabled: root.onTop; onActivated: online.escape() }
    // Android Back: closes Help; at the table asks before leaving; in the lobby leaves the room
    Shortcut { sequence: "Back"; autoRepeat: false; enabled: root.onTop; onActivated: online.back() }
    // M mutes at the table and on the results (elsewhere a name or a code may be typed)
    readonly property bool muteKey: root.onTop && (root.atTable || screen === "results")
    // M, Backspace/Delete and the arrows: Shortcuts while the focus is off the table, the
    // table's own plain keys while it has the focus (TableView.keyAction: keys then act in the
    // order pressed under a screen reader); what each does is decided here once.
    readonly property bool tableKeys: root.onTop && root.atTable && !online.helpOpen && !online.askingLeave
    function tableAction(name) {
        if (name === "mute") {
            if (root.muteKey) online.toggleMute();
        } else if (root.tableKeys) {
            if (name === "reset") {
                online.table.reset();
            } else {
                online.table.selectLine(name);
                table.tableArea.forceActiveFocus();
            }
        }
    }
    Connections { target: table; function onKeyAction(name) { root.tableAction(name); } }
    Shortcut { sequence: "M"; autoRepeat: false; enabled: root.muteKey && !table.tableFocused; onActivated: root.tableAction("mute") }
    Shortcut { sequences: ["Backspace", "Delete"]; autoRepeat: false; enabled: root.tableKeys && !table.tableFocused; onActivated: root.tableAction("reset") }
    Shortcut { sequences: ["Up", "Left"]; enabled: root.tableKeys && !table.tableFocused; onActivated: root.tableAction("pass") }
    Shortcut { sequences: ["Down", "Right"]; enabled: root.tableKeys && !table.tableFocused; onActivated: root.tableAction("dont_pass") }

    ColumnLayout {
        objectName: "onlinePage"
        anchors.fill: parent
        anchors.margins: root.gap
        anchors.topMargin: root.gap + root.insetTop
        anchors.bottomMargin: root.gap + root.insetBottom
        anchors.leftMargin: root.gap + root.insetLeft
        anchors.rightMargin: root.gap + root.insetRight
        spacing: root.gap
        enabled: !online.helpOpen && !online.askingLeave

        GridLayout {
            objectName: "onlineHeader"
            Layout.fillWidth: true
            columns: root.portrait ? 1 : 2
            rowSpacing: 2
            Heading {
                // an upright phone at the table: the felt first, the title makes way for it
                visible: !(online.mobile && root.portrait && root.atTable) && !root.countdownUp
                text: "Pointline Table · online"
                font.pixelSize: root.fs * 1.35
            }
            Text {
                // a small phone on its side, at the table: the countdown in the title's place
                objectName: "headerCountdown"
                visible: root.countdownUp
                text: table.countdownLine
                color: table.hurry ? "#ff9a8a" : "#fdf6e3"
                font.pixelSize: root.fs * 1.1
                font.bold: true
                Accessible.role: Accessible.StaticText
                Accessible.name: text
            }
            StatusLine {
                id: liveRegion
                objectName: "onlineStats"
                Layout.fillWidth: true
                horizontalAlignment: root.portrait ? Text.AlignLeft : Text.AlignRight
                balance: root.shownBalance
                balanceValue: online.seatTable.balance
                hand: online.seatTable.hand
                hands: online.hands
                throwCount: online.seatTable.throws
                throwCap: online.throwCap
                message: root.atTable ? ""
                    : (online.account.name.length > 0 ? "Signed in as <b>" + online.account.name + "</b>"
                       + (online.lobby.roomCode.length > 0 ? (online.host.hosting ? "" : " · room <b>" + online.lobby.roomCode + "</b>") + " · you are " + online.lobby.mySeatLabel : "") : "Not signed in")
                font.pixelSize: root.fs
                // upright the line wraps (a larger text size takes two lines), else it is cut
                // (a small phone at a larger text size wraps it on its side too)
                wrapMode: root.portrait || root.small ? Text.WordWrap : Text.NoWrap
                elide: root.portrait || root.small ? Text.ElideNone : Text.ElideRight
            }
        }

        StackLayout {
            id: stack
            Layout.fillWidth: true
            Layout.fillHeight: true
            currentIndex: Math.max(0, root.screens.indexOf(root.screen))
            OnlineSignIn { id: signin; online: root.online; px: root.px; minText: root.minText; objectName: "screenSignIn"; fs: root.fs; gap: root.gap }
            OnlineLobby { id: lobby; online: root.online; px: root.px; minText: root.minText; objectName: "screenLobby"; fs: root.fs; gap: root.gap }
            OnlineTable { id: table; online: root.online; px: root.px; minText: root.minText; objectName: "screenTable"; fs: root.fs; gap: root.gap }
            OnlineResults { id: results; online: root.online; px: root.px; minText: root.minText; objectName: "screenResults"; fs: root.fs; gap: root.gap }
        }

        Text {
            objectName: "onlineFooter"
            Layout.fillWidth: true
            // One line (two on a narrow screen): the casual-results notice has its own box in
            // the lobby and the results, and a paragraph in Help.
            text: "<b><font color='#f2c14e'>" + online.freeText + "</font></b>"
                  + (root.keysText.length > 0 ? " · " + root.keysText : "")
            textFormat: Text.StyledText
            wrapMode: Text.WordWrap
            font.pixelSize: Math.max(10.5, root.minText, root.fs * 0.7)
            color: "#d5e6dc"
            Accessible.role: Accessible.StaticText
            Accessible.name: online.freeText + ". " + root.keysText
        }
    }

    // ------------------------------------------------------------ help (never pauses online)
    CloseAsk { id: closeCard; bridge: root.online; fs: root.fs; gap: root.gap; visible: root.onTop && online.extras.closeQuestion.asked }

    TablePopup {
        id: helpOverlay
        objectName: "onlineHelp"
        title: "Help"
        fs: root.fs
        visible: root.onTop && online.helpOpen
        shade: "#d8061a10"
        width: Math.min(root.width - root.gap * 2, root.fs * 46)
        height: root.height - root.gap * 2
        onEscaped: online.escape()
        onMuteToggled: if (root.muteKey) online.toggleMute()
        ColumnLayout {
            anchors.fill: parent
            spacing: root.gap * 0.6
            Heading {
                Layout.fillWidth: true
                text: root.atTable && online.countdown.secondsLeft > 0
                      ? "Help — the countdown keeps running: " + online.countdown.secondsLeft + " s left"
                      : "Help — online play"
                font.pixelSize: root.fs * 1.2
                wrapMode: Text.WordWrap
            }
            Flickable {
                id: helpFlick
                Layout.fillWidth: true
                Layout.fillHeight: true
                clip: true
                contentHeight: helpText.implicitHeight
                boundsBehavior: Flickable.StopAtBounds
                ScrollIndicator.vertical: ScrollIndicator { }
                Text {
                    id: helpText
                    width: helpFlick.width - 10
                    wrapMode: Text.WordWrap
                    textFormat: Text.StyledText
                    color: "#fdf6e3"
                    font.pixelSize: root.fs * 0.9
                    Accessible.role: Accessible.StaticText
                    Accessible.name: "Online rules and keys"
                    text: online.helpText + "<br><br>" + online.helpKeys
                }
            }
            RowLayout {
                Layout.alignment: Qt.AlignRight
                spacing: root.gap
                GameButton {
                    id: motionButton
                    objectName: "btnReduceMotion"
                    Layout.preferredWidth: root.fs * 14
                    fs: root.fs
                    text: online.moment.reduceMotion ? "Reduce motion: on" : "Reduce motion: off"
                    hint: online.moment.reduceMotion ? "Animate the dice, outcomes and balance again"
                                                     : "Show every result at once, without animation"
                    onActivated: online.table.setReduceMotion(!online.moment.reduceMotion)
                }
                GameButton {
                    id: helpClose
                    objectName: "btnHelpClose"
                    Layout.preferredWidth: root.fs * 10
                    fs: root.fs
                    primary: true
                    text: online.mobile ? "Close" : "Close (Esc)"
                    hint: "Close Help and return"
                    onActivated: online.closeHelp()
                }
            }
        }
    }

    // ------------------------------------------------------------ leave the table? (asks first)
    TablePopup {
        id: leaveOverlay
        objectName: "leaveDialog"
        title: "Leave the table?"
        fs: root.fs
        visible: root.onTop && online.askingLeave
        shade: "#d8061a10"
        width: Math.min(root.width - root.gap * 2, root.fs * 30)
        onEscaped: online.escape()
        onMuteToggled: if (root.muteKey) online.toggleMute()
        ColumnLayout {
            id: leaveCol
            anchors.fill: parent
            spacing: root.gap
            Heading {
                Layout.fillWidth: true
                text: "Leave the table?"
                font.pixelSize: root.fs * 1.2
                wrapMode: Text.WordWrap
            }
            Text {
                objectName: "leaveQuestion"
                Layout.fillWidth: true
                text: "Leaving ends the session for everyone at the table, without a result. The unresolved hand is returned with no profit."
                wrapMode: Text.WordWrap
                color: "#fdf6e3"
                font.pixelSize: root.fs * 0.95
                Accessible.role: Accessible.StaticText
                Accessible.name: text
            }
            RowLayout {
                Layout.fillWidth: true
                spacing: root.gap
                GameButton {
                    id: stayButton
                    objectName: "btnStay"
                    Layout.fillWidth: true
                    fs: root.fs
                    primary: true
                    text: "Stay"
                    hint: "Keep playing; nothing is sent"
                    onActivated: online.cancelLeave()
                }
                GameButton {
                    id: leaveConfirm
                    objectName: "btnLeaveConfirm"
                    Layout.fillWidth: true
                    fs: root.fs
                    text: "Leave and end it"
                    hint: "Leave the table: the session ends for everyone without a result"
                    onActivated: online.confirmLeave()
                }
            }
        }
    }
}
