import QtQuick
import QtQuick.Layouts
import QtQuick.Controls.Basic
import Pointline
import Pointline.Replay

// Watch a session again: the verdict first, then the same table view as play (TableView fed by
// the replay's ReplaySeat, every action refused), every seat's balance and contracts, the
// timeline and the replay's controls. Keys: Left/Right step, Space plays or pauses, Home/End,
// Tab visits the controls, Escape leaves, F1 Help, M mute. No connection exists here.
// A screen of the one window (Frame.qml): it covers the screen that opened it until it leaves.
FocusScope {
    id: root
    objectName: "replayRoot"
    required property ReplayBridge replay
    property bool onTop: visible

    readonly property bool portrait: height > width
    readonly property bool shortLandscape: !portrait && height < 480
    readonly property real fs: Math.max(12, Math.min(22, Math.min(width / 70, height / 32)))
    readonly property real gap: Math.max(6, fs * 0.5)
    // the frame's safe area (a phone's notch and bars): the replay keeps inside it
    readonly property var frameWindow: ApplicationWindow.window
    readonly property real insetTop: frameWindow && frameWindow.insetTop !== undefined ? frameWindow.insetTop : 0
    readonly property real insetBottom: frameWindow && frameWindow.insetBottom !== undefined ? frameWindow.insetBottom : 0
    readonly property real insetLeft: frameWindow && frameWindow.insetLeft !== undefined ? frameWindow.insetLeft : 0
    readonly property real insetRight: frameWindow && frameWindow.insetRight !== undefined ? frameWindow.insetRight : 0
    readonly property bool panelOpen: dicePanel.opened || helpPopup.opened
    // the keys act only while this screen is the one on top
    readonly property bool keys: root.onTop && !root.panelOpen
    function focusFirst() {
        if (root.replay.problem.length > 0) problemLeave.forceActiveFocus();
        else controls.focusFirst();
    }

    Shortcut { sequence: "Left"; enabled: root.keys; onActivated: root.replay.back() }
    Shortcut { sequence: "Right"; enabled: root.keys; onActivated: root.replay.forward() }
    Shortcut { sequence: "Space"; enabled: root.keys; onActivated: root.replay.togglePlay() }
    Shortcut { sequence: "Home"; enabled: root.keys; onActivated: root.replay.first() }
    Shortcut { sequence: "End"; enabled: root.keys; onActivated: root.replay.last() }
    Shortcut { sequence: "Escape"; enabled: root.keys; onActivated: root.replay.leave() }
    Shortcut { sequence: "Back"; enabled: root.keys; onActivated: root.replay.leave() }
    Shortcut { sequence: "F1"; enabled: root.onTop; onActivated: helpPopup.open() }
    Shortcut { sequence: "M"; enabled: root.onTop; onActivated: root.replay.toggleMute() }
    Component.onCompleted: Qt.callLater(root.focusFirst)
    // the step shown is said through the frame's one announcement call
    readonly property string announcement: root.replay.table.announcement
    onAnnouncementChanged: if (root.Window.window) root.Window.window.announce(announcement)

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
    ColumnLayout {
        visible: root.replay.problem.length === 0
        anchors.fill: parent
        anchors.topMargin: root.gap + root.insetTop
        anchors.bottomMargin: root.gap + root.insetBottom
        anchors.leftMargin: root.gap + root.insetLeft
        anchors.rightMargin: root.gap + root.insetRight
        spacing: root.gap * 0.6

        GridLayout {
            Layout.fillWidth: true
            columns: root.portrait ? 1 : 2
            columnSpacing: root.gap
            rowSpacing: 0
            Text {
                objectName: "replayTitle"
                text: root.replay.title
                textFormat: Text.PlainText
                wrapMode: Text.Wrap
                Layout.fillWidth: root.portrait
                Layout.maximumWidth: root.portrait ? root.width : root.width * 0.4
                color: "#d8b25a"
                font.pixelSize: root.fs * 1.05
                font.bold: true
            }
            Text {
                objectName: "replayThrowTitle"
                Layout.fillWidth: true
                text: root.replay.throwTitle
                textFormat: Text.PlainText
                wrapMode: Text.Wrap
                color: "#fdf6e3"
                font.pixelSize: root.fs * 0.9
            }
        }
        ReplayVerdict {
            Layout.fillWidth: true
            replay: root.replay
            fs: root.fs
        }
        TableView {
            id: tableView
            Layout.fillWidth: true
            Layout.fillHeight: true
            table: root.replay.table
            fs: root.fs
            portrait: root.portrait
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
                Layout.fillWidth: true
                spacing: 2
                Repeater {
                    model: root.replay.players
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
            Layout.fillWidth: true
            replay: root.replay
            fs: root.fs
            compact: root.portrait
            onDiceRequested: dicePanel.open()
        }
        Text {
            objectName: "replayKeys"
            Layout.fillWidth: true
            visible: !root.shortLandscape
            text: root.replay.keysHint
            textFormat: Text.PlainText
            elide: Text.ElideRight
            color: "#cfe3d6"
            font.pixelSize: root.fs * 0.75
        }
    }

    DicePanel {
        id: dicePanel
        replay: root.replay
        fs: root.fs
        x: root.gap
        y: root.gap
        width: root.width - 2 * root.gap
        height: root.height - 2 * root.gap
        onClosed: controls.focusFirst()
    }
    Popup {
        id: helpPopup
        objectName: "replayHelp"
        modal: true
        focus: true
        x: root.gap; y: root.gap
        width: root.width - 2 * root.gap
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
