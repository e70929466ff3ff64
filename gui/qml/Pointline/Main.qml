import QtQuick
import QtQuick.Layouts
import QtQuick.Controls.Basic
import Pointline.Seat
import Pointline as Pointline  // Pointline.TableView, not Qt Quick's TableView

// The solo screen of the one window (Frame.qml): header, the table (TableView.qml) with the
// solo buttons, footer, and the cards as modal popups (TablePopup): Help, Paused, the
// new-session question, Stats, the guide and the close question. While another screen covers
// it (a replay, online) its keys and cards are off, and everything is kept as it was.
FocusScope {
    id: root
    objectName: "soloRoot"
    required property TableBridge bridge
    property bool onTop: true  // the frame's screen on top (Frame.qml binds it)
    readonly property var window: root.Window.window

    readonly property bool portrait: height > width
    readonly property bool phone: Math.min(width, height) < 500
    // A phone on its side with little height left inside the safe area: buttons in 3 columns.
    readonly property bool shortLandscape: !portrait && height - insetTop - insetBottom < 480
    // the system's text size (bridge.fontScale) scales every text of the screen
    readonly property real fs: (bridge.fontScale || 1) * Math.max(12, Math.min(34, Math.min(width / 70, height / 30)))
    // (a small phone at a larger text size: the least gaps, the room goes to the lines)
    readonly property bool small: bridge.mobile && (bridge.fontScale || 1) > 1.15 && Math.max(width, height) < 700
    readonly property real gap: small ? 6 : Math.max(6, fs * 0.5)
    // Safe-area insets (notch, home indicator, Android edge-to-edge), or faked ones in tests.
    readonly property real insetTop: Math.max(SafeArea.margins.top, bridge.insets.top || 0)
    readonly property real insetBottom: Math.max(SafeArea.margins.bottom, bridge.insets.bottom || 0)
    readonly property real insetLeft: Math.max(SafeArea.margins.left, bridge.insets.left || 0)
    readonly property real insetRight: Math.max(SafeArea.margins.right, bridge.insets.right || 0)
    readonly property bool blocked: bridge.paused || bridge.helpOpen || bridge.askingNewSession
        || bridge.extras.coveringText
    // The balance counts to its new value in the result moment (at once with reduce motion).
    property real shownBalance: bridge.balance
    Behavior on shownBalance {
        enabled: !bridge.reduceMotion
        NumberAnimation { duration: 550; easing.type: Easing.OutCubic; paused: running && root.blocked }
    }

    // ------------------------------------------------------------ focus
    // Focus never rests on nothing: outside a card it goes back to the table's last control.
    Connections {
        target: root.window
        function onActiveFocusItemChanged() {
            var f = root.window.activeFocusItem;
            if (root.onTop && (!f || f === root.window.contentItem)) Qt.callLater(root.settleFocus);
        }
    }
    function settleFocus() {
        if (!root.onTop) return;
        for (var card of [helpCard, pauseCard, askCard, statsCard, guideCard, closeCard])
            if (card.opened) return;
        var f = root.window ? root.window.activeFocusItem : null;
        if (!f || f === root.window.contentItem) table.restoreFocus();
    }
    // The frame shows this screen again (after a replay or online): the table takes the keys,
    // unless a card is open (it keeps its own focus).
    function focusFirst() { root.settleFocus(); }
    // The focus policy: a click, Escape or a table key gives the keys back to the table (a
    // card that is open keeps them); the last Tab-chosen button is forgotten.
    function tableTakesKeys() {
        table.lastControl = null;
        Qt.callLater(function() {
            if (!root.onTop || table.sheetOpen) return;
            for (var card of [helpCard, pauseCard, askCard, statsCard, guideCard, closeCard])
                if (card.visible) return;
            table.focusTable();
        });
    }
    function pointerUsed(button) { root.tableTakesKeys(); }
    function escapeKey() {
        root.tableTakesKeys();
        bridge.escape();
    }
    // The guide on first launch keeps the focus its card took when it opened.
    Component.onCompleted: if (!guideCard.visible) table.focusTable()

    // ------------------------------------------------------------ announcements
    Connections {
        target: root.bridge
        function onAnnounced(text) { root.window.announce(text); }
    }
    Text { id: liveText; visible: false; Accessible.role: Accessible.StaticText; Accessible.name: root.bridge.status }

    // ------------------------------------------------------------ shortcuts
    Shortcut { sequence: "F1"; autoRepeat: false; enabled: root.onTop; onActivated: bridge.openHelp() }
    // Android's Back: closes Help or the question, else pauses or resumes (never quits mid-session).
    Shortcut { sequence: "Back"; autoRepeat: false; enabled: root.onTop; onActivated: bridge.back() }
    Shortcut { sequence: "Escape"; autoRepeat: false; enabled: root.onTop; onActivated: root.escapeKey() }
    // M, Backspace/Delete and the arrows: Shortcuts while the focus is off the table, the
    // table's own plain keys while it has the focus (TableView.keyAction: keys then act in the
    // order pressed under a screen reader); what each does is decided here once.
    function tableAction(name) {
        if (!root.onTop)
            return;
        if (name === "mute") {
            bridge.toggleMute();
        } else if (!root.blocked) {
            if (name === "reset") bridge.act("reset");
            else bridge.selectLine(name);
            table.focusTable();
        }
    }
    Connections { target: table; function onKeyAction(name) { root.tableAction(name); } }
    readonly property bool shortcutKeys: root.onTop && !table.tableFocused
    Shortcut { sequence: "M"; autoRepeat: false; enabled: root.shortcutKeys; onActivated: root.tableAction("mute") }
    Shortcut { sequences: ["Backspace", "Delete"]; autoRepeat: false; enabled: root.shortcutKeys && !root.blocked; onActivated: root.tableAction("reset") }
    Shortcut { sequences: ["Up", "Left"]; enabled: root.shortcutKeys && !root.blocked; onActivated: root.tableAction("pass") }
    Shortcut { sequences: ["Down", "Right"]; enabled: root.shortcutKeys && !root.blocked; onActivated: root.tableAction("dont_pass") }

    ColumnLayout {
        id: page
        anchors.fill: parent
        anchors.margins: root.gap
        anchors.topMargin: root.gap + root.insetTop
        anchors.bottomMargin: root.gap + root.insetBottom
        anchors.leftMargin: root.gap + root.insetLeft
        anchors.rightMargin: root.gap + root.insetRight
        spacing: root.gap
        enabled: !bridge.extras.coveringText  // gui-extras: under Stats, the guide or the close question

        // -------------------------------------------------------- header
        GridLayout {
            id: header
            objectName: "header"
            Layout.fillWidth: true
            columns: root.portrait ? 1 : 2
            rowSpacing: 2
            Heading {
                text: "Pointline Table"
                font.pixelSize: root.fs * 1.35
            }
            StatusLine {
                id: stats
                objectName: "stats"
                Layout.fillWidth: true
                horizontalAlignment: root.portrait ? Text.AlignLeft : Text.AlignRight
                balance: root.shownBalance
                balanceValue: bridge.balance
                hand: bridge.hand
                hands: bridge.hands
                throwCount: bridge.throws
                throwCap: bridge.throwCap
                font.pixelSize: root.fs
                wrapMode: Text.WordWrap
            }
        }

        // -------------------------------------------------------- the table
        Pointline.TableView {
            id: table
            objectName: "tableView"
            Layout.fillWidth: true
            Layout.fillHeight: true
            table: root.bridge
            fs: root.fs
            fontScale: root.bridge.fontScale || 1
            gap: root.gap
            portrait: root.portrait
            statsOffered: true  // gui-extras: the record of past sessions
            onStatsRequested: root.bridge.extras.openStats()
            shortLandscape: root.shortLandscape
            frozen: root.blocked
            balanceTarget: stats

            GameButton {
                objectName: "btnHelp"; Layout.fillWidth: true; fs: root.fs
                text: bridge.mobile ? "Help" : "Help (F1)"
                hint: "Open the rules and why buttons are off; solo pauses while Help is open"
                onActivated: bridge.openHelp()
            }
            SoundButton { owner: root.bridge; fs: root.fs }
            WindowButton { owner: root.bridge; fs: root.fs }
            GameButton {
                objectName: "btnOnline"; Layout.fillWidth: true; fs: root.fs
                text: "Play online"
                hint: "Play with friends on a relay; this table waits, paused"
                onActivated: bridge.playOnline()
            }
            GameButton {
                objectName: "btnNew"; Layout.fillWidth: true; fs: root.fs
                Layout.columnSpan: table.buttonGrid.columns === 3 ? (bridge.mobile ? 3 : 2) : (bridge.mobile ? 1 : 2)
                text: "New session"
                hint: bridge.texts.newSessionHint
                onActivated: bridge.askNewSession()
            }
        }

        // -------------------------------------------------------- footer
        Text {
            id: footer
            objectName: "footer"
            Layout.fillWidth: true
            // What Space and Enter do where the focus is now: on the table the phase's keys,
            // on a button (a chip, Help...) pressing that button.
            readonly property Item button: {
                var f = root.window ? root.window.activeFocusItem : null;
                return f && f.tableControl === true && f !== table.tableArea && !bridge.mobile ? f : null;
            }
            // the card that is open has its own keys (Esc closes or resumes it, F1 is off)
            readonly property string card: bridge.mobile ? ""
                : guideCard.visible ? "keysGuide" : closeCard.visible ? "keysClose"
                : askCard.visible ? "keysAsk" : helpCard.visible ? "keysHelp"
                : pauseCard.visible ? "keysPaused" : statsCard.visible ? "keysStats" : ""
            readonly property string keys: card.length > 0
                ? bridge.texts[card].replace("{button}", button ? (button.Accessible.name || button.text) : bridge.texts.keysNoButton)
                : button
                ? bridge.texts.focusKeys.replace("{button}", button.Accessible.name || button.text)
                : bridge.keysHint
            text: "<b><font color='#f2c14e'>" + bridge.texts.freeText + "</font></b> · " + keys
                  + (bridge.windowMode === "fullscreen" && !bridge.mobile ? " · the Window button leaves full screen" : "")
            textFormat: Text.StyledText
            wrapMode: Text.WordWrap
            // (a small phone at a larger text size: its short touch hints take fewer lines)
            maximumLineCount: root.small ? (root.portrait ? 2 : 1) : root.portrait ? 3 : 2
            // Its lines are always kept: a footer that grows or shrinks with the phase, the
            // focus or the window mode never moves the felt.
            Layout.preferredHeight: Math.ceil(footerMetrics.lineSpacing * maximumLineCount) + 1
            verticalAlignment: Text.AlignBottom
            FontMetrics { id: footerMetrics; font: footer.font }
            font.pixelSize: Math.max(10.5, root.fs * 0.72)
            color: "#d5e6dc"
            Accessible.role: Accessible.StaticText
            Accessible.name: bridge.texts.freeText + ". " + keys
        }
    }

    // ------------------------------------------------------------ help
    TablePopup {
        id: helpCard
        objectName: "helpOverlay"
        title: "Help"
        fs: root.fs
        visible: root.onTop && bridge.helpOpen
        width: Math.min(root.width - root.insetLeft - root.insetRight - root.gap * 2, root.fs * 46)
        height: root.height - root.insetTop - root.insetBottom - root.gap * 2
        onOpened: helpClose.forceActiveFocus()
        onEscaped: root.escapeKey()
        onMuteToggled: bridge.toggleMute()
        onClosed: Qt.callLater(table.restoreFocus)
        ColumnLayout {
            anchors.fill: parent
            spacing: root.gap * 0.6
            Heading {
                Layout.fillWidth: true
                text: "Help — solo is paused"
                font.pixelSize: root.fs * 1.3
            }
            Flickable {
                id: helpFlick
                Layout.fillWidth: true
                Layout.fillHeight: true
                clip: true
                contentHeight: helpColumn.implicitHeight
                boundsBehavior: Flickable.StopAtBounds
                ScrollBar.vertical: ScrollBar { }
                Column {
                    id: helpColumn
                    width: helpFlick.width - 10
                    spacing: root.gap
                    Text {
                        objectName: "whyNow"
                        width: parent.width
                        visible: bridge.whyNow.length > 0
                        wrapMode: Text.WordWrap
                        color: "#ffd98a"
                        font.pixelSize: root.fs * 0.9
                        text: "<b>Off right now</b><br>" + bridge.whyNow.split("\n").join("<br>")
                        textFormat: Text.StyledText
                        Accessible.role: Accessible.StaticText
                        Accessible.name: "Off right now: " + bridge.whyNow
                    }
                    Text {
                        width: parent.width
                        wrapMode: Text.WordWrap
                        textFormat: Text.StyledText
                        color: "#fdf6e3"
                        font.pixelSize: root.fs * 0.9
                        Accessible.role: Accessible.StaticText
                        Accessible.name: "Rules and keys"
                        text: bridge.texts.helpHtml
                    }
                }
            }
            HelpExtras { bridge: root.bridge; fs: root.fs * 0.9; gap: root.gap }  // gui-extras
            RowLayout {
                Layout.fillWidth: true
                spacing: root.gap
                GameButton {
                    objectName: "btnMotion"
                    Layout.fillWidth: true
                    fs: root.fs * 0.9
                    text: bridge.reduceMotion ? "Reduce motion: on" : "Reduce motion: off"
                    hint: bridge.reduceMotion ? "Animate the dice, chips and balance again"
                                              : "Show every throw's result at once, without animation"
                    onActivated: bridge.setReduceMotion(!bridge.reduceMotion)
                }
                GameButton {
                    id: helpClose
                    objectName: "btnHelpClose"
                    Layout.preferredWidth: root.fs * 8
                    fs: root.fs
                    primary: true
                    text: bridge.mobile ? "Close" : "Close (Esc)"
                    hint: "Close Help and return to the table"
                    onActivated: bridge.closeHelp()
                }
            }
        }
    }

    // ------------------------------------------------------------ pause
    TablePopup {
        id: pauseCard
        objectName: "pauseOverlay"
        title: "Paused"
        fs: root.fs
        visible: root.onTop && bridge.paused && !bridge.helpOpen && !bridge.askingNewSession
        width: Math.min(root.width - root.gap * 2, root.fs * 22)
        onOpened: resumeButton.forceActiveFocus()
        onEscaped: root.escapeKey()
        onMuteToggled: bridge.toggleMute()
        onClosed: Qt.callLater(table.restoreFocus)
        ColumnLayout {
            anchors.fill: parent
            spacing: root.gap
            Text {
                Layout.fillWidth: true
                text: "Paused"
                font.family: "DejaVu Serif"
                font.pixelSize: root.fs * 1.4
                font.bold: true
                color: "#f2c14e"
                horizontalAlignment: Text.AlignHCenter
            }
            Text {
                Layout.fillWidth: true
                text: bridge.mobile ? "Nothing can be played until you resume."
                      : "Nothing can be played until you resume (Escape or Resume)."
                color: "#fdf6e3"
                font.pixelSize: root.fs
                wrapMode: Text.WordWrap
                horizontalAlignment: Text.AlignHCenter
            }
            GameButton {
                id: resumeButton
                objectName: "btnResume"
                Layout.alignment: Qt.AlignHCenter
                Layout.preferredWidth: root.fs * 9
                fs: root.fs
                primary: true
                text: "Resume"
                hint: "Resume the session"
                onActivated: bridge.resume()
            }
            GameButton {
                objectName: "btnLeaveFullscreen"
                visible: bridge.windowMode === "fullscreen" && !bridge.mobile
                Layout.alignment: Qt.AlignHCenter
                Layout.preferredWidth: root.fs * 12
                fs: root.fs * 0.9
                text: "Leave full screen"
                hint: "Back to a standard window; the session is kept"
                onActivated: bridge.setWindowMode("standard")
            }
        }
    }

    // ------------------------------------------------------------ new-session question
    TablePopup {
        id: askCard
        objectName: "askOverlay"
        title: "Start a new session?"
        fs: root.fs
        visible: root.onTop && bridge.askingNewSession
        width: Math.min(root.width - root.gap * 2, root.fs * 28)
        onOpened: askCancel.forceActiveFocus()
        onEscaped: root.escapeKey()
        onMuteToggled: bridge.toggleMute()
        onClosed: Qt.callLater(table.restoreFocus)
        ColumnLayout {
            anchors.fill: parent
            spacing: root.gap
            Text {
                Layout.fillWidth: true
                text: "Start a new session? This one ends and its points are not kept. Cancel keeps everything as it is."
                wrapMode: Text.WordWrap
                color: "#fdf6e3"
                font.pixelSize: root.fs
            }
            RowLayout {
                Layout.fillWidth: true
                spacing: root.gap
                GameButton {
                    id: askCancel
                    objectName: "btnAskCancel"
                    Layout.fillWidth: true
                    fs: root.fs
                    text: "Cancel (Esc)"
                    hint: "Keep playing this session"
                    onActivated: bridge.cancelNewSession()
                }
                GameButton {
                    objectName: "btnAskConfirm"
                    Layout.fillWidth: true
                    fs: root.fs
                    primary: true
                    text: "New session"
                    hint: bridge.texts.newSessionConfirmHint
                    onActivated: bridge.confirmNewSession()
                }
            }
        }
    }
    // gui-extras: Stats, the first-hand guide and the close question (on top of the rest)
    // (hidden, not closed, while another screen covers this one: back, they are as they were)
    StatsView { id: statsCard; bridge: root.bridge; fs: root.fs; gap: root.gap; visible: root.onTop && bridge.extras.statsOpen }
    Guide { id: guideCard; bridge: root.bridge; fs: root.fs; gap: root.gap; visible: root.onTop && bridge.extras.guideOpen }
    CloseAsk { id: closeCard; bridge: root.bridge; fs: root.fs; gap: root.gap; visible: root.onTop && bridge.extras.closeQuestion.asked }
}
