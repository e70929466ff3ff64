import QtQuick
import QtQuick.Layouts
import QtQuick.Controls.Basic
import Pointline

// The online table: shared dice and point, my two lines (a local draft until I commit),
// the countdown and who is awaited, my buttons, and every seat read-only.
Item {
    id: screen
    property real fs: 14
    property real gap: 8
    readonly property bool portrait: height > width
    readonly property bool shortLandscape: !portrait && height < 420
    property alias tableArea: tableArea
    function focusFirst() { tableArea.forceActiveFocus(); }
    // a tap on a line during the result moment only ends the moment (as a fresh key press does)
    function tapLine(line) {
        if (online.revealStage !== "") online.moment.finish(); else online.selectLine(line);
        tableArea.forceActiveFocus();
    }

    GridLayout {
        anchors.fill: parent
        columns: screen.portrait ? 1 : 3
        rowSpacing: screen.gap
        columnSpacing: screen.gap

        // ---------------- felt
        Rectangle {
            id: felt
            objectName: "onlineFelt"
            Layout.fillWidth: true
            Layout.fillHeight: true
            Layout.minimumHeight: screen.portrait ? Math.max(210, screen.fs * 13) : 0
            Layout.verticalStretchFactor: screen.portrait ? 2 : 3
            Layout.horizontalStretchFactor: 3
            radius: screen.fs * 1.2
            border.width: Math.max(5, screen.fs * 0.5)
            border.color: "#5a3a1e"
            gradient: Gradient {
                GradientStop { position: 0.0; color: "#1c7a4d" }
                GradientStop { position: 1.0; color: "#0e5233" }
            }
            FocusScope {
                id: tableArea
                objectName: "tableArea"
                anchors.fill: parent
                anchors.margins: felt.border.width + screen.gap * 0.6
                activeFocusOnTab: false
                Accessible.role: Accessible.Pane
                Accessible.name: "Online table"
                Accessible.description: online.phase === "point"
                    ? "Point is " + online.point + ". Enter or Space rolls. " + online.countdown.secondsLeft + " seconds left."
                    : "Come-out. Space allocates 10 to the selected line, Enter confirms. " + online.countdown.secondsLeft + " seconds left."
                Keys.onPressed: function(event) {
                    if (event.key === Qt.Key_Space) {
                        online.tableKey("space"); event.accepted = true;
                    } else if (event.key === Qt.Key_Return || event.key === Qt.Key_Enter) {
                        online.tableKey("enter"); event.accepted = true;
                    }
                }
                Rectangle {
                    anchors.fill: parent
                    anchors.margins: -screen.gap * 0.4
                    color: "transparent"
                    radius: screen.fs * 0.6
                    border.width: tableArea.activeFocus ? 2 : 0
                    border.color: "#ffffff"
                    opacity: 0.6
                }
                ColumnLayout {
                    anchors.fill: parent
                    spacing: screen.gap * 0.8
                    RowLayout {
                        Layout.fillWidth: true
                        spacing: screen.gap
                        Puck {
                            id: puck
                            objectName: "onlinePuck"
                            size: Math.max(44, screen.fs * 3.0)
                            point: online.point
                        }
                        ColumnLayout {
                            Layout.fillWidth: true
                            spacing: 2
                            Text {
                                objectName: "onlinePhase"
                                Layout.fillWidth: true
                                text: online.phase === "point" ? "Point " + online.point : "Come-out"
                                font.family: "DejaVu Serif"
                                font.pixelSize: screen.fs * 1.3
                                font.bold: true
                                color: "#fdf6e3"
                                elide: Text.ElideRight
                            }
                            RowLayout {
                                objectName: "onlinePointBoxes"
                                Layout.fillWidth: true
                                spacing: 2
                                Accessible.role: Accessible.StaticText
                                Accessible.name: online.phase === "point" ? "Point boxes: " + online.point + " is on" : "Point boxes: no point yet"
                                Repeater {
                                    model: online.pointNumbers
                                    Rectangle {
                                        required property int modelData
                                        readonly property bool on: online.phase === "point" && online.point === modelData
                                        objectName: "pointBox" + modelData
                                        Layout.fillWidth: true
                                        Layout.maximumWidth: screen.fs * 3.2
                                        Layout.preferredHeight: Math.max(18, screen.fs * 1.5)
                                        radius: 3
                                        color: on ? "#fdfdfd" : "transparent"
                                        border.color: "#e8e2cf"
                                        border.width: 1
                                        Accessible.ignored: true
                                        Text {
                                            anchors.centerIn: parent
                                            text: parent.modelData
                                            font.pixelSize: screen.fs * 0.95
                                            font.bold: true
                                            color: parent.on ? "#8b1a1a" : "#fdf6e3"
                                        }
                                    }
                                }
                            }
                        }
                        Row {
                            id: diceRow
                            objectName: "onlineDice"
                            spacing: screen.gap
                            property int serial: online.rollSerial
                            // the result moment's first beat: the dice tumble (none under Reduce motion)
                            readonly property bool rolling: online.revealStage === "rolling"
                            property int f1: 1
                            property int f2: 1
                            onSerialChanged: if (serial > 0 && !online.moment.reduceMotion) shake.restart()
                            Accessible.role: Accessible.Graphic
                            Accessible.name: online.die1 > 0 ? "Shared dice " + online.die1 + " and " + online.die2 : "Shared dice not thrown yet"
                            Timer {
                                interval: 55; repeat: true; running: diceRow.rolling
                                onTriggered: { diceRow.f1 = 1 + Math.floor(Math.random() * 6); diceRow.f2 = 1 + Math.floor(Math.random() * 6); }
                            }
                            SequentialAnimation {
                                id: shake
                                NumberAnimation { target: diceRow; property: "rotation"; from: -12; to: 12; duration: 90 }
                                NumberAnimation { target: diceRow; property: "rotation"; to: -8; duration: 90 }
                                NumberAnimation { target: diceRow; property: "rotation"; to: 0; duration: 120 }
                            }
                            Die { size: puck.size * 0.92; value: diceRow.rolling ? diceRow.f1 : online.die1 }
                            Die { size: puck.size * 0.92; value: diceRow.rolling ? diceRow.f2 : online.die2 }
                        }
                    }
                    LineArea {
                        objectName: "onlineLinePass"
                        Layout.fillWidth: true
                        Layout.fillHeight: true
                        Layout.minimumHeight: 48
                        title: "PASS LINE"
                        line: "pass"
                        fs: screen.fs
                        tone: "#c0392b"
                        selected: online.selectedLine === "pass"
                        phase: online.phase
                        draftAmount: online.draftPass
                        contractAmount: online.contractPass
                        // on the shortest felt the reason is said on demand only (a tap, the buttons)
                        reason: felt.height < 240 ? "" : (online.lineReasons["pass"] || "")
                        outcome: online.lineOutcomes["pass"] || ""
                        onTapped: screen.tapLine("pass")
                    }
                    LineArea {
                        objectName: "onlineLineDontPass"
                        Layout.fillWidth: true
                        Layout.fillHeight: true
                        Layout.minimumHeight: 48
                        title: "DON'T PASS BAR"
                        line: "dont_pass"
                        fs: screen.fs
                        tone: "#2c3e50"
                        selected: online.selectedLine === "dont_pass"
                        phase: online.phase
                        draftAmount: online.draftDontPass
                        contractAmount: online.contractDontPass
                        // on the shortest felt the reason is said on demand only (a tap, the buttons)
                        reason: felt.height < 240 ? "" : (online.lineReasons["dont_pass"] || "")
                        outcome: online.lineOutcomes["dont_pass"] || ""
                        onTapped: screen.tapLine("dont_pass")
                    }
                }
            }
        }

        // ---------------- controls
        ColumnLayout {
            id: controls
            Layout.fillWidth: screen.portrait
            Layout.preferredWidth: screen.portrait ? -1 : screen.shortLandscape ? Math.max(300, screen.fs * 22) : Math.max(236, screen.fs * 15)
            Layout.fillHeight: !screen.portrait
            spacing: screen.gap * 0.6
            Rectangle {
                objectName: "countdown"
                Layout.fillWidth: true
                implicitHeight: cdCol.implicitHeight + screen.gap
                radius: 8
                color: "#10251b"
                border.color: online.countdown.secondsLeft > 0 && online.countdown.secondsLeft <= 10 ? "#ff9a8a" : "#2f5a45"
                Accessible.role: Accessible.ProgressBar
                Accessible.name: "Time to choose"
                Accessible.description: online.countdown.secondsLeft + " of " + online.confirmSeconds + " seconds left. " + online.awaitedText
                ColumnLayout {
                    id: cdCol
                    anchors.fill: parent
                    anchors.margins: screen.gap * 0.5
                    spacing: 2
                    Text {
                        Layout.fillWidth: true
                        text: online.countdown.secondsLeft > 0 ? online.countdown.secondsLeft + " s left for throw " + (online.throws + 1)
                                                     : "Throw " + (online.throws + 1)
                        color: online.countdown.secondsLeft > 0 && online.countdown.secondsLeft <= 10 ? "#ff9a8a" : "#fdf6e3"
                        font.pixelSize: screen.fs
                        font.bold: true
                        elide: Text.ElideRight
                    }
                    Rectangle {
                        Layout.fillWidth: true
                        implicitHeight: Math.max(4, screen.fs * 0.35)
                        radius: height / 2
                        color: "#1d3a2c"
                        Rectangle {
                            height: parent.height
                            radius: height / 2
                            width: parent.width * Math.min(1, online.countdown.secondsLeft / Math.max(1, online.confirmSeconds))
                            color: online.countdown.secondsLeft <= 10 ? "#ff9a8a" : "#f2c14e"
                        }
                    }
                    Text {
                        objectName: "awaited"
                        Layout.fillWidth: true
                        text: online.awaitedText
                        color: "#ffd98a"
                        font.pixelSize: screen.fs * 0.82
                        wrapMode: Text.WordWrap
                        maximumLineCount: 2
                        elide: Text.ElideRight
                    }
                }
            }
            Text {
                id: liveText
                objectName: "onlineLiveText"
                Layout.fillWidth: true
                Layout.minimumHeight: screen.fs * 2.6
                text: online.notice.length > 0 ? online.notice : online.announcement
                color: online.notice.length > 0 ? "#ffd98a" : "#e8f3ec"
                font.pixelSize: screen.fs * 0.9
                wrapMode: Text.WordWrap
                verticalAlignment: Text.AlignVCenter
                Accessible.role: Accessible.StaticText
                Accessible.name: text
            }
            GridLayout {
                id: buttonGrid
                objectName: "onlineButtons"
                Layout.fillWidth: true
                // four to a row on the shortest portrait window, so the seats keep room below
                columns: screen.portrait && screen.height < 560 ? 4 : screen.portrait || screen.shortLandscape ? 3 : 2
                rowSpacing: screen.gap * 0.6
                columnSpacing: screen.gap * 0.6
                GameButton {
                    objectName: "btnAllocate"; Layout.fillWidth: true; fs: screen.fs
                    text: "Allocate " + online.unit; primary: true
                    hint: "Add " + online.unit + " to the selected line (" + (online.selectedLine === "pass" ? "Pass" : "Don't Pass") + ")"
                    enabled: online.legal["allocate"] === true
                    reason: online.reasons["allocate"] || ""
                    onActivated: online.allocate()
                }
                GameButton {
                    objectName: "btnConfirm"; Layout.fillWidth: true; fs: screen.fs
                    text: online.confirmLabel; primary: true
                    hint: online.confirmLabel === "Confirm" ? "Commit this draft as your contracts for the throw"
                                                            : "Sit this hand out (press twice); the dice still roll"
                    enabled: online.legal["confirm"] === true
                    reason: online.reasons["confirm"] || ""
                    onActivated: online.confirm()
                }
                GameButton {
                    objectName: "btnReset"; Layout.fillWidth: true; fs: screen.fs
                    text: "Reset"
                    hint: "Restore the draft to what was last sealed"
                    enabled: online.legal["reset"] === true
                    reason: online.reasons["reset"] || ""
                    onActivated: online.reset()
                }
                GameButton {
                    objectName: "btnReduce"; Layout.fillWidth: true; fs: screen.fs
                    text: "Don't Pass −" + online.unit
                    hint: "Prepare a Don't Pass reduction of " + online.unit + ", refunded when you roll"
                    enabled: online.legal["reduce"] === true
                    reason: online.reasons["reduce"] || ""
                    onActivated: online.reduceDontPass()
                }
                GameButton {
                    objectName: "btnRemove"; Layout.fillWidth: true; fs: screen.fs
                    text: "Remove Don't Pass"
                    hint: "Prepare removing Don't Pass, refunded when you roll"
                    enabled: online.legal["remove"] === true
                    reason: online.reasons["remove"] || ""
                    onActivated: online.removeDontPass()
                }
                GameButton {
                    objectName: "btnRoll"; Layout.fillWidth: true; fs: screen.fs
                    text: "Roll"; primary: true
                    hint: "Commit your remaining contracts; the shared dice roll when every seat has"
                    enabled: online.legal["roll"] === true
                    reason: online.reasons["roll"] || ""
                    onActivated: online.roll()
                }
                GameButton {
                    objectName: "btnHelp"; Layout.fillWidth: true; fs: screen.fs
                    text: online.mobile ? "Help" : "Help (F1)"
                    hint: "Open the rules; online the countdown keeps running"
                    onActivated: online.openHelp()
                }
                GameButton {
                    objectName: "btnMute"; Layout.fillWidth: true; fs: screen.fs
                    text: (online.muted ? "Turn sound on" : "Mute sound") + (online.mobile ? "" : " (M)")
                    hint: online.muted ? "Turn sounds on" : "Mute sounds"
                    onActivated: online.toggleMute()
                }
                GameButton {
                    objectName: "btnWindow"; Layout.fillWidth: true; fs: screen.fs
                    visible: !online.mobile
                    text: online.windowMode === "standard" ? "Window: Standard"
                          : online.windowMode === "theater" ? "Window: Theater" : "Window: Fullscreen"
                    hint: "Switch Standard, Theater and Fullscreen; the session is kept"
                    onActivated: online.cycleWindowMode()
                }
                GameButton {
                    objectName: "btnLeaveTable"; Layout.fillWidth: true; fs: screen.fs
                    Layout.columnSpan: buttonGrid.columns === 2 && online.mobile ? 2 : 1
                    text: "Leave table"
                    hint: "Asks first: leaving ends the session for everyone without a result"
                    onActivated: online.askLeave()
                }
            }
            Item { Layout.fillHeight: !screen.portrait; Layout.preferredHeight: 0 }
        }

        // ---------------- every seat
        Rectangle {
            id: seatsPanel
            objectName: "seats"
            Layout.fillWidth: screen.portrait
            Layout.fillHeight: true
            Layout.preferredWidth: screen.portrait ? -1 : Math.max(190, screen.fs * 15)
            Layout.minimumHeight: screen.portrait ? screen.fs * 6 : 0
            Layout.verticalStretchFactor: 2
            radius: screen.fs * 0.5
            color: "#10251b"
            border.color: "#2f5a45"
            // the history only where it fits below the seats (not on the shortest phones)
            readonly property bool roomForHistory: !screen.portrait || height >= screen.fs * 10
            Accessible.role: Accessible.List
            Accessible.name: "Seats at the table"
            ColumnLayout {
                anchors.fill: parent
                anchors.margins: screen.gap * 0.7
                spacing: screen.gap * 0.4
                Text {
                    Layout.fillWidth: true
                    text: "Seats (" + online.seats.count + ")"
                    font.pixelSize: screen.fs * 0.9
                    font.bold: true
                    color: "#f2c14e"
                    elide: Text.ElideRight
                }
                ListView {
                    id: seatList
                    objectName: "seatList"
                    Layout.fillWidth: true
                    Layout.fillHeight: true
                    clip: true
                    spacing: 4
                    model: online.seats
                    boundsBehavior: Flickable.StopAtBounds
                    ScrollIndicator.vertical: ScrollIndicator { }
                    delegate: OnlineSeat {
                        required property var model
                        width: seatList.width - 4
                        fs: screen.fs
                        row: model
                    }
                }
                Text {
                    objectName: "onlineHistoryHeading"
                    visible: seatsPanel.roomForHistory
                    Layout.fillWidth: true
                    text: "Your history"
                    font.pixelSize: screen.fs * 0.9
                    font.bold: true
                    color: "#f2c14e"
                    elide: Text.ElideRight
                    Accessible.role: Accessible.Heading
                    Accessible.name: text
                }
                Text {
                    objectName: "onlineHistoryEmpty"
                    Layout.fillWidth: true
                    visible: seatsPanel.roomForHistory && historyList.count === 0
                    text: "Your contracts, every throw and every payment appear here."
                    wrapMode: Text.WordWrap
                    font.pixelSize: screen.fs * 0.75
                    color: "#9fb8aa"
                }
                ListView {
                    id: historyList
                    objectName: "onlineHistory"
                    Layout.fillWidth: true
                    visible: seatsPanel.roomForHistory && count > 0
                    Layout.preferredHeight: screen.portrait ? seatsPanel.height * 0.35 : seatsPanel.height * 0.3
                    clip: true
                    model: online.history
                    spacing: 1
                    boundsBehavior: Flickable.StopAtBounds
                    onCountChanged: Qt.callLater(positionViewAtEnd)
                    Accessible.role: Accessible.List
                    Accessible.name: "Your history"
                    delegate: Text {
                        required property var modelData
                        width: historyList.width - 4
                        text: modelData.text
                        wrapMode: Text.WordWrap
                        font.pixelSize: screen.fs * 0.75
                        color: modelData.kind === "win" ? "#8fe3a7" : modelData.kind === "loss" ? "#ff9a8a"
                             : modelData.kind === "refund" ? "#ffd98a" : "#cfe3d6"
                        Accessible.role: Accessible.ListItem
                        Accessible.name: text
                    }
                }
            }
        }
    }
}
