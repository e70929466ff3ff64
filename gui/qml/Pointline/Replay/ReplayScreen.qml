import QtQuick
import QtQuick.Layouts
import QtQuick.Controls.Basic
import Pointline
import Pointline.Replay

// Watch a session again: the verdict first, then the same table view as play (TableView fed by
// the replay's ReplaySeat, every action refused), every seat's balance and contracts, the
// timeline and the replay's controls. Keys: Left/Right step, Space plays or pauses, Home/End,
// Tab visits the controls, Escape (Android's Back) pauses as solo does (the pause card: Resume,
// Leave replay), F1 Help, M mute. No connection exists here.
// A phone (touch: the table's ``mobile``): the felt first (sideways at least half the safe
// area), Next under the thumb, the details (verdict, seats) scrolling above the controls, the
// history in a sheet, no text under 11 pt.
// A screen of the one window (Frame.qml): it covers the screen that opened it until it leaves.
FocusScope {
    id: root
    objectName: "replayRoot"
    required property ReplayBridge replay
    property bool onTop: visible

    readonly property bool portrait: height > width
    readonly property bool shortLandscape: !portrait && height < 480
    // a phone (touch): its own layout, and its base type size raised (no text under 11 pt)
    readonly property bool phone: root.replay.table.mobile === true
    readonly property real fs: root.phone ? Math.max(16, Math.min(22, Math.min(width / 70, height / 40)))
                                          : Math.max(12, Math.min(22, Math.min(width / 70, height / 32)))
    readonly property real gap: Math.max(6, fs * 0.5)
    // the safe area (a phone's notch and bars): the frame's, and the replay's own faked ones
    // (tests and the layout check); the replay keeps inside it
    readonly property var frameWindow: ApplicationWindow.window
    readonly property var fakeInsets: root.replay.insets || ({})
    function frameInset(name) {
        return frameWindow && frameWindow[name] !== undefined ? frameWindow[name] : 0;
    }
    readonly property real insetTop: Math.max(frameInset("insetTop"), fakeInsets.top || 0)
    readonly property real insetBottom: Math.max(frameInset("insetBottom"), fakeInsets.bottom || 0)
    readonly property real insetLeft: Math.max(frameInset("insetLeft"), fakeInsets.left || 0)
    readonly property real insetRight: Math.max(frameInset("insetRight"), fakeInsets.right || 0)
    readonly property bool panelOpen: dicePanel.opened || helpPopup.opened || historySheet.opened
    // the keys act only while this screen is the one on top, and not while it is paused
    readonly property bool keys: root.onTop && !root.panelOpen && !root.replay.paused
    readonly property bool watching: root.replay.problem.length === 0
    function focusFirst() {
        if (!root.watching) problemLeave.forceActiveFocus();
        else if (pauseCard.opened) resumeButton.forceActiveFocus();
        else controls.focusFirst();
    }
    // Escape and Android's Back pause the replay as they pause solo (a file that cannot be
    // watched has nothing to pause: they leave)
    function escapeKey() {
        if (root.watching) root.replay.escape();
        else root.replay.leave();
    }

    Shortcut { sequence: "Left"; enabled: root.keys; onActivated: root.replay.back() }
    Shortcut { sequence: "Right"; enabled: root.keys; onActivated: root.replay.forward() }
    Shortcut { sequence: "Space"; enabled: root.keys; onActivated: root.replay.togglePlay() }
    Shortcut { sequence: "Home"; enabled: root.keys; onActivated: root.replay.first() }
    Shortcut { sequence: "End"; enabled: root.keys; onActivated: root.replay.last() }
    Shortcut { sequences: ["Escape", "Back"]; autoRepeat: false; enabled: root.keys; onActivated: root.escapeKey() }
    Shortcut { sequence: "F1"; enabled: root.onTop && !root.replay.paused; onActivated: helpPopup.open() }
    Shortcut { sequence: "M"; enabled: root.onTop; onActivated: root.replay.toggleMute() }
    Component.onCompleted: Qt.callLater(root.focusFirst)
    // the step shown is said through the frame's one announcement call, and so are the pause
    // and the resume
    readonly property string announcement: root.replay.table.announcement
    onAnnouncementChanged: if (root.Window.window) root.Window.window.announce(announcement)
    Connections {
        target: root.replay
        function onAnnounced(text) { if (root.Window.window) root.Window.window.announce(text); }
    }

    // ---------------------------------------------------------------- a file that cannot be watched
    ColumnLayout {
        visible: root.replay.problem.length > 0
        anchors.centerIn: parent
        width: Math.min(parent.width - 2 * root.gap, root.fs * 36)
        spacing: root.gap
        Text {
            objectName: "replayProblem"
            Layout.fillWidth: true
            text: root.replay.problem
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            horizontalAlignment: Text.AlignHCenter
            color: "#fdf6e3"
            font.pixelSize: root.fs * 1.1
            Accessible.role: Accessible.AlertMessage
            Accessible.name: text
        }
        GameButton {
            id: problemLeave
            objectName: "replayProblemLeave"
            // centred under the words, wide enough for its label on one line (finding 8)
            Layout.alignment: Qt.AlignHCenter
            Layout.preferredWidth: Math.max(implicitContentWidth + 2 * root.fs, root.fs * 10)
            fs: root.fs
            text: root.replay.texts.leave
            onActivated: root.replay.leave()
        }
    }

    // ---------------------------------------------------------------- the replay
    // A desktop: the details (title, verdict) on top, the table, the controls, the keys.
    // A phone in portrait: the details scroll on top, the felt, the controls, Next at the
    // bottom; on its side: the felt on the left, the details and the controls on the right.
    GridLayout {
        id: page
        readonly property bool sideways: root.phone && !root.portrait
        visible: root.watching
        anchors.fill: parent
        anchors.topMargin: root.gap + root.insetTop
        anchors.bottomMargin: root.gap + root.insetBottom
        anchors.leftMargin: root.gap + root.insetLeft
        anchors.rightMargin: root.gap + root.insetRight
        columns: page.sideways ? 2 : 1
        rowSpacing: root.gap * 0.6
        columnSpacing: root.gap
        // the right column's width when sideways (the felt keeps the rest: over half)
        readonly property real sideWidth: Math.max(230, width * 0.4)

        Flickable {
            id: details
            objectName: "replayDetails"
            Layout.row: 0
            Layout.column: page.sideways ? 1 : 0
            Layout.fillWidth: !page.sideways
            Layout.preferredWidth: page.sideways ? page.sideWidth : -1
            Layout.fillHeight: page.sideways
            // a phone in portrait: at most a quarter of the height (less on a small one; it
            // scrolls); else all of it
            Layout.preferredHeight: page.sideways ? -1
                : root.phone ? Math.min(contentHeight, page.height * (page.height < 600 ? 0.12 : 0.25))
                : contentHeight
            Layout.minimumHeight: root.phone ? 0 : contentHeight
            contentWidth: width
            contentHeight: detailsColumn.implicitHeight
            clip: true
            interactive: root.phone && contentHeight > height
            boundsBehavior: Flickable.StopAtBounds
            ScrollIndicator.vertical: ScrollIndicator { active: details.interactive }
            ColumnLayout {
                id: detailsColumn
                width: details.width
                spacing: root.gap * 0.6
                GridLayout {
                    Layout.fillWidth: true
                    columns: root.phone ? 2 : root.portrait ? 1 : 2
                    columnSpacing: root.gap
                    rowSpacing: 0
                    // a phone: the verdict's word first, in its colour, on the title's line (its
                    // sentence below)
                    Text {
                        objectName: "replayPhoneVerdictWord"
                        visible: root.phone && text.length > 0
                        text: root.replay.verdictWord
                        textFormat: Text.PlainText
                        color: root.replay.verdictWord === "OK" ? "#7ee2a8"
                             : root.replay.verdictWord === "FAIL" ? "#ff9a8a" : "#ffd479"
                        font.pixelSize: root.fs * 1.05
                        font.bold: true
                        Accessible.role: Accessible.StaticText
                        Accessible.name: text
                    }
                    Text {
                        objectName: "replayTitle"
                        text: root.replay.title
                        textFormat: Text.PlainText
                        wrapMode: Text.Wrap
                        Layout.fillWidth: root.portrait || root.phone
                        Layout.maximumWidth: root.portrait ? detailsColumn.width : root.phone ? -1 : root.width * 0.4
                        color: "#d8b25a"
                        font.pixelSize: root.fs * 1.05
                        font.bold: true
                    }
                    Text {
                        objectName: "replayThrowTitle"
                        Layout.fillWidth: true
                        Layout.columnSpan: root.phone ? 2 : 1
                        text: root.replay.throwTitle
                        textFormat: Text.PlainText
                        wrapMode: Text.Wrap
                        color: "#fdf6e3"
                        font.pixelSize: root.fs * 0.9
                    }
                }
                // a phone: every seat's balance and contracts under the throw (a desktop: beside the felt)
                Column {
                    objectName: "replayPlayersPhone"
                    visible: root.phone
                    Layout.fillWidth: true
                    spacing: 2
                    Repeater {
                        model: root.phone ? root.replay.players : []
                        delegate: Text {
                            required property var modelData
                            width: detailsColumn.width
                            text: modelData.text
                            textFormat: Text.PlainText
                            wrapMode: Text.Wrap
                            color: modelData.you ? "#ffd479" : "#fdf6e3"
                            font.pixelSize: root.fs * 0.8
                            Accessible.role: Accessible.StaticText
                            Accessible.name: text
                        }
                    }
                }
                ReplayVerdict {
                    Layout.fillWidth: true
                    replay: root.replay
                    fs: root.fs
                    full: root.phone
                    wordShown: !root.phone
                }
            }
        }
        TableView {
            id: tableView
            Layout.row: page.sideways ? 0 : 1
            Layout.column: 0
            Layout.rowSpan: page.sideways ? 2 : 1
            Layout.fillWidth: true
            Layout.fillHeight: true
            table: root.replay.table
            fs: root.fs
            // a phone lays the replay's parts out around the felt itself (the felt alone here,
            // with no portrait minimum of play's own)
            feltOnly: root.phone
            portrait: root.portrait && !root.phone
            namePrefix: "replay"
            tableName: root.replay.title
            historyTitle: root.replay.texts.history
            shortLandscape: root.shortLandscape
            historyShown: !root.portrait || root.height >= 760
            actionsShown: false  // nothing can be played in a replay
            sideMinimumHeight: playersColumn.implicitHeight
            side: Column {
                id: playersColumn
                objectName: "replayPlayers"
                visible: !root.phone
                Layout.fillWidth: true
                spacing: 2
                Repeater {
                    model: root.phone ? [] : root.replay.players
                    delegate: Text {
                        required property var modelData
                        width: playersColumn.width
                        text: modelData.text
                        textFormat: Text.PlainText
                        wrapMode: Text.Wrap
                        color: modelData.you ? "#ffd479" : "#fdf6e3"
                        font.pixelSize: root.fs * 0.8
                        Accessible.role: Accessible.StaticText
                        Accessible.name: text
                    }
                }
            }
        }
        ReplayControls {
            id: controls
            Layout.row: page.sideways ? 1 : 2
            Layout.column: page.sideways ? 1 : 0
            Layout.fillWidth: !page.sideways
            Layout.preferredWidth: page.sideways ? page.sideWidth : -1
            Layout.fillHeight: false
            replay: root.replay
            fs: root.fs
            compact: root.portrait
            phone: root.phone
            onDiceRequested: dicePanel.open()
            onHistoryRequested: historySheet.open()
        }
        Text {
            objectName: "replayKeys"
            Layout.row: 3
            Layout.column: 0
            Layout.fillWidth: true
            visible: !root.shortLandscape && !root.phone
            text: root.replay.keysHint
            textFormat: Text.PlainText
            elide: Text.ElideRight
            color: "#cfe3d6"
            font.pixelSize: root.fs * 0.75
        }
    }

    // the panels keep inside the safe area
    readonly property real panelX: root.insetLeft + root.gap
    readonly property real panelY: root.insetTop + root.gap
    readonly property real panelWidth: root.width - root.insetLeft - root.insetRight - 2 * root.gap
    readonly property real panelHeight: root.height - root.insetTop - root.insetBottom - 2 * root.gap
    DicePanel {
        id: dicePanel
        replay: root.replay
        fs: root.fs
        x: root.panelX
        y: root.panelY
        width: root.panelWidth
        height: root.panelHeight
        onClosed: controls.focusFirst()
    }
    // a phone: the seat's history in a sheet, opened on demand (History)
    Popup {
        id: historySheet
        objectName: "replayHistorySheet"
        modal: true
        focus: true
        x: root.panelX
        y: root.panelY
        width: root.panelWidth
        height: root.panelHeight
        padding: root.gap
        closePolicy: Popup.CloseOnEscape | Popup.CloseOnPressOutside
        onOpened: historyClose.forceActiveFocus()
        onClosed: controls.focusFirst()
        background: Rectangle { color: "#0b2e20"; border.color: "#2f5a45"; border.width: 2; radius: 8 }
        contentItem: ColumnLayout {
            spacing: root.gap
            HistoryPanel {
                objectName: "replayHistoryInSheet"
                Layout.fillWidth: true
                Layout.fillHeight: true
                title: root.replay.texts.history
                headingName: "replayHistorySheetHeading"
                table: root.replay.table
                fs: root.fs
                gap: root.gap
            }
            GameButton {
                id: historyClose
                objectName: "replayHistoryClose"
                Layout.fillWidth: true
                fs: root.fs * 0.9
                text: root.replay.texts.closePanel
                onActivated: historySheet.close()
            }
        }
    }
    // Escape or Back paused the replay (as they pause solo): nothing moves until Resume or
    // Escape again; Leave replay is here too
    TablePopup {
        id: pauseCard
        objectName: "replayPause"
        title: root.replay.texts.pausedTitle
        description: root.replay.texts.pausedText
        fs: root.fs
        visible: root.onTop && root.replay.paused
        width: Math.min(root.panelWidth, root.fs * 22)
        onOpened: resumeButton.forceActiveFocus()
        onEscaped: root.replay.escape()
        onMuteToggled: root.replay.toggleMute()
        onClosed: Qt.callLater(controls.focusFirst)
        ColumnLayout {
            anchors.fill: parent
            spacing: root.gap
            Text {
                Layout.fillWidth: true
                text: root.replay.texts.pausedTitle
                textFormat: Text.PlainText
                font.family: "DejaVu Serif"
                font.pixelSize: root.fs * 1.4
                font.bold: true
                color: "#f2c14e"
                horizontalAlignment: Text.AlignHCenter
            }
            Text {
                Layout.fillWidth: true
                text: root.phone ? root.replay.texts.pausedTextMobile : root.replay.texts.pausedText
                textFormat: Text.PlainText
                color: "#fdf6e3"
                font.pixelSize: root.fs
                wrapMode: Text.WordWrap
                horizontalAlignment: Text.AlignHCenter
            }
            GameButton {
                id: resumeButton
                objectName: "replayResume"
                Layout.fillWidth: true
                fs: root.fs
                primary: true
                text: root.replay.texts.resume
                hint: root.replay.texts.resumeHint
                onActivated: root.replay.resume()
            }
            GameButton {
                objectName: "replayPauseLeave"
                Layout.fillWidth: true
                fs: root.fs
                text: root.replay.texts.leave
                onActivated: root.replay.leave()
            }
        }
    }
    Popup {
        id: helpPopup
        objectName: "replayHelp"
        modal: true
        focus: true
        x: root.panelX; y: root.panelY
        width: root.panelWidth
        height: Math.min(implicitHeight, root.panelHeight)
        padding: root.fs
        onOpened: helpClose.forceActiveFocus()
        onClosed: controls.focusFirst()
        background: Rectangle { color: "#10261b"; border.color: "#d8b25a"; border.width: 2; radius: root.fs * 0.6 }
        contentItem: ColumnLayout {
            spacing: root.gap
            Text {
                Layout.fillWidth: true
                text: root.replay.texts.help
                textFormat: Text.PlainText
                wrapMode: Text.Wrap
                color: "#fdf6e3"
                font.pixelSize: root.fs * 0.9
            }
            GameButton {
                id: helpClose
                fs: root.fs * 0.85
                text: root.replay.texts.closePanel
                onActivated: helpPopup.close()
            }
        }
    }
}
