import QtQuick
import QtQuick.Layouts
import QtQuick.Controls.Basic

// The solo table: felt with the two lines, puck and dice; buttons; history; result view.
ApplicationWindow {
    id: root
    width: 1280
    height: 720
    visible: true
    title: "Pointline Table"
    color: "#0b2e20"

    readonly property bool portrait: height > width
    readonly property bool phone: Math.min(width, height) < 500
    // A phone on its side with little height left inside the safe area: buttons in 3 columns.
    readonly property bool shortLandscape: !portrait && height - insetTop - insetBottom < 480
    readonly property real fs: Math.max(12, Math.min(34, Math.min(width / 70, height / 30)))
    readonly property real gap: Math.max(6, fs * 0.5)
    readonly property string freeText: "Free fictional points, no prizes"
    readonly property string hintText: bridge.mobile ? bridge.texts.keysTouch
        : root.width < 1000 ? bridge.texts.keysNarrow : bridge.texts.keysWide
    // Safe-area insets (notch, home indicator, Android edge-to-edge), or faked ones in tests.
    readonly property real insetTop: Math.max(SafeArea.margins.top, bridge.insets.top || 0)
    readonly property real insetBottom: Math.max(SafeArea.margins.bottom, bridge.insets.bottom || 0)
    readonly property real insetLeft: Math.max(SafeArea.margins.left, bridge.insets.left || 0)
    readonly property real insetRight: Math.max(SafeArea.margins.right, bridge.insets.right || 0)
    // The balance counts to its new value in the result moment (at once with reduce motion).
    property real shownBalance: bridge.balance
    Behavior on shownBalance {
        enabled: !bridge.reduceMotion
        NumberAnimation { duration: 550; easing.type: Easing.OutCubic }
    }
    readonly property bool draftEmpty: bridge.draftPass + bridge.draftDontPass === 0
    readonly property string sitOutText: "Nothing on the lines: Enter or Sit out skips this hand (the dice still roll)."
    property Item lastFocus: null

    // ------------------------------------------------------------ window modes and focus
    readonly property string mode: bridge.windowMode
    onModeChanged: {
        var keep = root.activeFocusItem;
        if (mode === "fullscreen") root.visibility = Window.FullScreen;
        else if (mode === "theater") root.visibility = Window.Maximized;
        else root.visibility = Window.Windowed;
        Qt.callLater(function() { if (keep) keep.forceActiveFocus(); });
    }
    function isReal(it) {
        return it !== null && it !== undefined && it.visible && it.enabled
            && (it.objectName === "tableArea" || it.objectName.indexOf("btn") === 0)
            && (!bridge.askingNewSession || it.objectName.indexOf("btnAsk") === 0);
    }
    // When the focused button turns off (after Remove, say), focus moves to the next legal
    // control in the Tab order, never silently to nothing.
    property Item watched: null
    Connections {
        target: root.watched
        ignoreUnknownSignals: true
        function onEnabledChanged() {
            var it = root.watched;
            if (it && !it.enabled) {
                var next = it.nextItemInFocusChain(true);
                if (next && root.isReal(next) && next !== it) next.forceActiveFocus();
                else tableArea.forceActiveFocus();
            }
        }
    }
    onActiveFocusItemChanged: {
        if (activeFocusItem && activeFocusItem.objectName.indexOf("btn") === 0) root.watched = activeFocusItem;
        if (isReal(activeFocusItem)) {
            if (activeFocusItem !== helpClose && activeFocusItem.objectName.indexOf("btnAsk") !== 0)
                root.lastFocus = activeFocusItem;
        } else {
            Qt.callLater(root.restoreFocus);
        }
    }
    function restoreFocus() {
        if (bridge.paused && !bridge.helpOpen && !bridge.askingNewSession) {
            var f = root.activeFocusItem;
            if (!f || (f.objectName !== "btnResume" && f.objectName !== "btnLeaveFullscreen")) resumeButton.forceActiveFocus();
            return;
        }
        if (isReal(root.activeFocusItem) && !bridge.askingNewSession
            && (root.activeFocusItem === helpClose) === bridge.helpOpen) return;
        if (bridge.askingNewSession && root.activeFocusItem && root.activeFocusItem.objectName.indexOf("btnAsk") === 0) return;
        if (bridge.askingNewSession) askCancel.forceActiveFocus();
        else if (bridge.helpOpen) helpClose.forceActiveFocus();
        else if (isReal(root.lastFocus)) root.lastFocus.forceActiveFocus();
        else tableArea.forceActiveFocus();
    }
    readonly property bool helpOpen: bridge.helpOpen
    onHelpOpenChanged: Qt.callLater(root.restoreFocus)
    readonly property bool asking: bridge.askingNewSession
    onAskingChanged: Qt.callLater(root.restoreFocus)
    Component.onCompleted: tableArea.forceActiveFocus()

    // ------------------------------------------------------------ announcements
    readonly property string announcement: bridge.announcement
    onAnnouncementChanged: {
        try { liveText.Accessible.announce(announcement); } catch (e) { }
    }

    // ------------------------------------------------------------ shortcuts
    Shortcut { sequence: "F1"; onActivated: bridge.openHelp() }
    // Android's Back: closes Help or the question, else pauses or resumes (never quits mid-session).
    Shortcut { sequence: "Back"; onActivated: bridge.back() }
    Shortcut { sequence: "Escape"; onActivated: bridge.escape() }
    Shortcut { sequence: "M"; onActivated: bridge.toggleMute() }
    Shortcut { sequences: ["Backspace", "Delete"]; enabled: !bridge.helpOpen && !bridge.paused && !bridge.extras.coveringText; onActivated: bridge.reset() }  // gui-extras
    Shortcut {
        sequences: ["Up", "Left"]; enabled: !bridge.helpOpen && !bridge.paused && !bridge.extras.coveringText  // gui-extras
        onActivated: { bridge.selectLine("pass"); tableArea.forceActiveFocus(); }
    }
    Shortcut {
        sequences: ["Down", "Right"]; enabled: !bridge.helpOpen && !bridge.paused && !bridge.extras.coveringText  // gui-extras
        onActivated: { bridge.selectLine("dont_pass"); tableArea.forceActiveFocus(); }
    }

    ColumnLayout {
        id: page
        anchors.fill: parent
        anchors.margins: root.gap
        anchors.topMargin: root.gap + root.insetTop
        anchors.bottomMargin: root.gap + root.insetBottom
        anchors.leftMargin: root.gap + root.insetLeft
        anchors.rightMargin: root.gap + root.insetRight
        spacing: root.gap
        enabled: !bridge.helpOpen && !bridge.askingNewSession && !bridge.paused && !bridge.extras.coveringText  // gui-extras

        // -------------------------------------------------------- header
        GridLayout {
            id: header
            objectName: "header"
            Layout.fillWidth: true
            columns: root.portrait ? 1 : 2
            rowSpacing: 2
            Text {
                text: "Pointline Table"
                font.family: "DejaVu Serif"
                font.pixelSize: root.fs * 1.35
                font.bold: true
                color: "#f2c14e"
                Accessible.role: Accessible.Heading
                Accessible.name: text
            }
            Text {
                id: stats
                objectName: "stats"
                Layout.fillWidth: true
                horizontalAlignment: root.portrait ? Text.AlignLeft : Text.AlignRight
                text: "Balance <b>" + Math.round(root.shownBalance).toLocaleString(Qt.locale("en_US"), "f", 0) + "</b>   ·   Hand <b>" + bridge.hand + "/" + bridge.hands
                      + "</b>   ·   Throw <b>" + bridge.throws + "/" + bridge.throwCap + "</b>"
                textFormat: Text.StyledText
                font.pixelSize: root.fs
                color: "#fdf6e3"
                wrapMode: Text.WordWrap
                Accessible.role: Accessible.StaticText
                Accessible.name: "Balance " + bridge.balance + ", hand " + bridge.hand + " of " + bridge.hands + ", throw " + bridge.throws + " of " + bridge.throwCap
            }
        }

        // -------------------------------------------------------- content
        GridLayout {
            id: content
            Layout.fillWidth: true
            Layout.fillHeight: true
            columns: root.portrait ? 1 : 3
            rowSpacing: root.gap
            columnSpacing: root.gap

            // ---------------- felt
            Rectangle {
                id: felt
                objectName: "felt"
                Layout.fillWidth: true
                Layout.fillHeight: true
                Layout.minimumHeight: root.portrait ? Math.max(200, root.fs * 16) : 0
                Layout.verticalStretchFactor: 3
                Layout.horizontalStretchFactor: 3
                radius: root.fs * 1.2
                border.width: Math.max(5, root.fs * 0.5)
                border.color: "#5a3a1e"
                gradient: Gradient {
                    GradientStop { position: 0.0; color: "#1c7a4d" }
                    GradientStop { position: 1.0; color: "#0e5233" }
                }

                FocusScope {
                    id: tableArea
                    objectName: "tableArea"
                    anchors.fill: parent
                    anchors.margins: felt.border.width + root.gap * 0.6
                    activeFocusOnTab: false
                    Accessible.role: Accessible.Pane
                    Accessible.name: "Table"
                    Accessible.description: bridge.phase === "point"
                        ? "Point is " + bridge.point + ". Enter or Space rolls."
                        : bridge.texts.comeOutTable
                    Keys.onPressed: function(event) {
                        if (event.key === Qt.Key_Space) {
                            bridge.tableKey("space"); event.accepted = true;
                        } else if (event.key === Qt.Key_Return || event.key === Qt.Key_Enter) {
                            bridge.tableKey("enter"); event.accepted = true;
                        }
                    }

                    ColumnLayout {
                        anchors.fill: parent
                        spacing: root.gap * 0.8

                        RowLayout {
                            id: topRow
                            Layout.fillWidth: true
                            spacing: root.gap
                            Puck {
                                id: puck
                                objectName: "puck"
                                size: Math.max(44, root.fs * 3.2)
                                point: bridge.point
                            }
                            ColumnLayout {
                                Layout.fillWidth: true
                                spacing: 2
                                Text {
                                    Layout.fillWidth: true
                                    text: bridge.phase === "point" ? "Point " + bridge.point
                                          : bridge.phase === "come_out" ? "Come-out"
                                          : bridge.phase === "complete" ? "Session complete" : "Session ended"
                                    font.family: "DejaVu Serif"
                                    font.pixelSize: root.fs * 1.2
                                    font.bold: true
                                    color: "#fdf6e3"
                                    wrapMode: Text.WordWrap
                                }
                                RowLayout {
                                    objectName: "pointBoxes"
                                    Layout.fillWidth: true
                                    spacing: 2
                                    Repeater {
                                        model: bridge.pointNumbers
                                        Rectangle {
                                            required property int modelData
                                            readonly property bool on: bridge.point === modelData
                                            Layout.fillWidth: true
                                            Layout.maximumWidth: root.fs * 3.2
                                            Layout.preferredHeight: Math.max(18, root.fs * 1.5)
                                            radius: 3
                                            color: on ? "#fdfdfd" : "transparent"
                                            border.color: "#e8e2cf"
                                            border.width: 1
                                            Accessible.ignored: true
                                            Text {
                                                anchors.centerIn: parent
                                                text: parent.modelData
                                                font.pixelSize: root.fs * 0.95
                                                font.bold: true
                                                color: parent.on ? "#8b1a1a" : "#fdf6e3"
                                            }
                                        }
                                    }
                                }
                            }
                            Row {
                                id: diceRow
                                objectName: "dice"
                                spacing: root.gap
                                property int serial: bridge.rollSerial
                                readonly property bool rolling: bridge.revealStage === "rolling"
                                property int f1: 1
                                property int f2: 1
                                property bool live: false
                                Component.onCompleted: live = true
                                onSerialChanged: if (live && serial > 0 && !bridge.reduceMotion) shake.restart()
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
                                Die { size: puck.size * 0.92; value: diceRow.rolling ? diceRow.f1 : bridge.die1 }
                                Die { size: puck.size * 0.92; value: diceRow.rolling ? diceRow.f2 : bridge.die2 }
                            }
                        }

                        LineArea {
                            id: passArea
                            objectName: "linePass"
                            visible: !bridge.isOver
                            Layout.fillWidth: true
                            Layout.fillHeight: true
                            title: "PASS LINE"
                            motto: bridge.texts.passMotto
                            line: "pass"
                            fs: root.fs
                            tone: "#c0392b"
                            selected: bridge.selectedLine === "pass"
                            phase: bridge.phase
                            draftAmount: bridge.draftPass
                            contractAmount: bridge.contractPass
                            reason: bridge.lineReasons["pass"] || ""
                            outcome: bridge.lineOutcomes["pass"] || ""
                            focusRing: tableArea.activeFocus && selected
                            onTapped: { bridge.selectLine("pass"); tableArea.forceActiveFocus(); }
                        }
                        LineArea {
                            id: dpArea
                            objectName: "lineDontPass"
                            visible: !bridge.isOver
                            Layout.fillWidth: true
                            Layout.fillHeight: true
                            title: "DON'T PASS BAR"
                            motto: bridge.texts.dontPassMotto
                            line: "dont_pass"
                            fs: root.fs
                            tone: "#2c3e50"
                            selected: bridge.selectedLine === "dont_pass"
                            phase: bridge.phase
                            draftAmount: bridge.draftDontPass
                            contractAmount: bridge.contractDontPass
                            reason: bridge.lineReasons["dont_pass"] || ""
                            outcome: bridge.lineOutcomes["dont_pass"] || ""
                            focusRing: tableArea.activeFocus && selected
                            onTapped: { bridge.selectLine("dont_pass"); tableArea.forceActiveFocus(); }
                        }

                        // ---------------- result view
                        ColumnLayout {
                            id: resultView
                            objectName: "resultView"
                            visible: bridge.isOver
                            Layout.fillWidth: true
                            Layout.fillHeight: true
                            spacing: root.gap * 0.5
                            Text {
                                Layout.fillWidth: true
                                text: bridge.phase === "complete" ? bridge.resultText : "No result: " + bridge.endReason
                                font.pixelSize: root.fs * 1.3
                                font.bold: true
                                color: "#fff0c2"
                                wrapMode: Text.WordWrap
                                Accessible.role: Accessible.StaticText
                                Accessible.name: text
                            }
                            Text {
                                Layout.fillWidth: true
                                text: bridge.phase === "complete"
                                      ? "Five hands resolved. Points across the session's throws:"
                                      : "The hand in flight was voided and returned with no profit. Points across the throws:"
                                font.pixelSize: root.fs * 0.9
                                color: "#fdf6e3"
                                wrapMode: Text.WordWrap
                            }
                            BalanceChart {
                                objectName: "chart"
                                Layout.fillWidth: true
                                Layout.fillHeight: true
                                Layout.minimumHeight: 40
                                samples: bridge.chart
                                start: bridge.startingPoints
                                fs: root.fs
                            }
                            GameButton { objectName: "btnStats"; Layout.fillWidth: true; fs: root.fs; text: "Stats: all your sessions"; hint: "Your finished sessions and their balance charts"; onActivated: bridge.extras.openStats() }  // gui-extras
                        }
                    }

                    // ---------------- the felt's message after a throw
                    Rectangle {
                        id: feltBanner
                        objectName: "feltBanner"
                        visible: bridge.feltMessage.length > 0 && !bridge.isOver && !bridge.paused
                        anchors.horizontalCenter: parent.horizontalCenter
                        anchors.bottom: parent.bottom
                        anchors.bottomMargin: root.gap * 0.3
                        width: Math.min(parent.width, feltText.implicitWidth + root.fs * 2)
                        height: feltText.height + root.gap
                        radius: height / 2
                        color: "#f0061a10"
                        border.color: "#f2c14e"
                        border.width: 2
                        Text {
                            id: feltText
                            anchors.centerIn: parent
                            width: Math.min(implicitWidth, feltBanner.parent.width - root.fs * 2)
                            text: bridge.feltMessage
                            font.pixelSize: root.fs
                            font.bold: true
                            color: "#ffe08a"
                            wrapMode: Text.WordWrap
                            horizontalAlignment: Text.AlignHCenter
                        }
                    }
                }
            }

            // ---------------- controls
            ColumnLayout {
                id: controls
                Layout.fillWidth: root.portrait
                Layout.preferredWidth: root.portrait ? -1 : root.shortLandscape ? Math.max(300, root.fs * 22) : Math.max(236, root.fs * 15)
                Layout.fillHeight: !root.portrait
                spacing: root.gap * 0.6

                Text {
                    id: liveText
                    objectName: "liveText"
                    Layout.fillWidth: true
                    Layout.minimumHeight: root.fs * 2.6
                    text: bridge.paused ? "Paused."
                          : bridge.notice.length > 0 ? bridge.notice
                          : (bridge.legal["confirm"] === true && root.draftEmpty) ? root.sitOutText
                          : bridge.announcement
                    color: bridge.notice.length > 0 ? "#ffd98a" : "#e8f3ec"
                    font.pixelSize: root.fs * 0.95
                    wrapMode: Text.WordWrap
                    verticalAlignment: Text.AlignVCenter
                    Accessible.role: Accessible.StaticText
                    Accessible.name: text
                }

                Item {
                Layout.fillWidth: true
                implicitHeight: buttons.implicitHeight
                // A tap on a button that is off says why (touch has no hover for tooltips):
                // disabled buttons let the press through to this area behind them.
                MouseArea {
                    objectName: "behindButtons"
                    anchors.fill: parent
                    onClicked: function(mouse) {
                        var hit = buttons.childAt(mouse.x, mouse.y);
                        if (hit && !hit.enabled && hit.reason) bridge.explain(hit.text, hit.reason);
                    }
                }
                GridLayout {
                    id: buttons
                    objectName: "buttons"
                    anchors.left: parent.left
                    anchors.right: parent.right
                    columns: root.portrait || root.shortLandscape ? 3 : 2
                    rowSpacing: root.gap * 0.6
                    columnSpacing: root.gap * 0.6

                    GameButton {
                        objectName: "btnAllocate"; Layout.fillWidth: true; fs: root.fs
                        text: bridge.texts.allocate; primary: true
                        hint: "Add to the selected line (" + (bridge.selectedLine === "pass" ? "Pass" : "Don't Pass") + ")"
                        enabled: bridge.legal["allocate"] === true
                        reason: bridge.reasons["allocate"] || ""
                        onActivated: bridge.allocate()
                    }
                    GameButton {
                        objectName: "btnConfirm"; Layout.fillWidth: true; fs: root.fs
                        readonly property bool sitsOut: root.draftEmpty && bridge.legal["confirm"] === true
                        text: sitsOut ? "Sit out" : "Confirm"; primary: true
                        hint: sitsOut ? "Skip this hand with nothing on the lines; the dice still roll"
                                              : "Seal the draft as this hand's contracts and throw"
                        enabled: bridge.legal["confirm"] === true
                        reason: bridge.reasons["confirm"] || ""
                        onActivated: bridge.confirm()
                    }
                    GameButton {
                        objectName: "btnReset"; Layout.fillWidth: true; fs: root.fs
                        text: "Reset"
                        hint: "Restore the draft to what was last sealed"
                        enabled: bridge.legal["reset"] === true
                        reason: bridge.reasons["reset"] || ""
                        onActivated: bridge.reset()
                    }
                    GameButton {
                        objectName: "btnReduce"; Layout.fillWidth: true; fs: root.fs
                        text: bridge.texts.reduce
                        hint: bridge.texts.reduceHint
                        enabled: bridge.legal["reduce"] === true
                        reason: bridge.reasons["reduce"] || ""
                        onActivated: bridge.reduceDontPass()
                    }
                    GameButton {
                        objectName: "btnRemove"; Layout.fillWidth: true; fs: root.fs
                        text: "Remove Don't Pass"
                        hint: "Prepare removing Don't Pass, refunded when you roll"
                        enabled: bridge.legal["remove"] === true
                        reason: bridge.reasons["remove"] || ""
                        onActivated: bridge.removeDontPass()
                    }
                    GameButton {
                        objectName: "btnRoll"; Layout.fillWidth: true; fs: root.fs
                        text: "Roll"; primary: true
                        hint: "Seal the remaining contracts and throw the dice"
                        enabled: bridge.legal["roll"] === true
                        reason: bridge.reasons["roll"] || ""
                        onActivated: bridge.roll()
                    }
                    GameButton {
                        objectName: "btnHelp"; Layout.fillWidth: true; fs: root.fs
                        text: bridge.mobile ? "Help" : "Help (F1)"
                        hint: "Open the rules; solo pauses while Help is open"
                        onActivated: bridge.openHelp()
                    }
                    GameButton {
                        objectName: "btnMute"; Layout.fillWidth: true; fs: root.fs
                        text: bridge.muted ? (bridge.mobile ? "Turn sound on" : "Turn sound on (M)")
                                           : (bridge.mobile ? "Mute sound" : "Mute sound (M)")
                        hint: bridge.muted ? "Turn sounds on" : "Mute sounds"
                        onActivated: bridge.toggleMute()
                    }
                    GameButton {
                        objectName: "btnWindow"; Layout.fillWidth: true; fs: root.fs
                        visible: !bridge.mobile
                        text: bridge.windowMode === "standard" ? "Window: Standard"
                              : bridge.windowMode === "theater" ? "Window: Theater" : "Window: Fullscreen"
                        hint: "Switch Standard, Theater and Fullscreen; the session is kept"
                        onActivated: bridge.cycleWindowMode()
                    }
                    GameButton {
                        objectName: "btnOnline"; Layout.fillWidth: true; fs: root.fs
                        text: "Play online"
                        hint: "Play with friends on a relay (2 to 8 people); this table waits, paused"
                        onActivated: bridge.playOnline()
                    }
                    GameButton {
                        objectName: "btnNew"; Layout.fillWidth: true; fs: root.fs
                        Layout.columnSpan: root.portrait || root.shortLandscape ? (bridge.mobile ? 3 : 2) : (bridge.mobile ? 1 : 2)
                        text: "New session"
                        hint: bridge.texts.newSessionHint
                        onActivated: bridge.askNewSession()
                    }
                }
                }
                // Why some buttons are off: a list in landscape, a collapsible one in portrait.
                readonly property var whyLines: {
                    var labels = { allocate: "Allocate", confirm: "Confirm", reset: "Reset",
                                   reduce: bridge.texts.reduce, remove: "Remove Don't Pass", roll: "Roll" };
                    var r = bridge.reasons, out = [], seen = {};
                    for (var k in labels) if (r[k]) out.push([labels[k], r[k]]);
                    // One reason for everything (paused, Help, the dice rolling) is said once.
                    for (var i = 0; i < out.length; i++) seen[out[i][1]] = true;
                    if (out.length > 1 && Object.keys(seen).length === 1) return [["All buttons", out[0][1]]];
                    return out;
                }
                property bool whyOpen: !root.portrait && !root.shortLandscape
                GameButton {
                    id: whyToggle
                    objectName: "btnWhy"
                    visible: root.portrait && !bridge.isOver && controls.whyLines.length > 0
                    Layout.fillWidth: true
                    fs: root.fs * 0.85
                    text: (controls.whyOpen ? "Hide why buttons are off" : "Why are some buttons off?")
                    hint: "Show or hide the reasons the dimmed buttons are off now"
                    onActivated: controls.whyOpen = !controls.whyOpen
                }
                Flickable {
                    id: whyFlick
                    objectName: "whyFlick"
                    visible: controls.whyOpen && !bridge.isOver && controls.whyLines.length > 0 && !root.shortLandscape
                    Layout.fillWidth: true
                    Layout.fillHeight: !root.portrait
                    Layout.preferredHeight: root.portrait ? Math.min(whyText.implicitHeight, root.fs * 6) : -1
                    Layout.topMargin: root.gap * 0.4
                    clip: true
                    contentHeight: whyText.implicitHeight
                    boundsBehavior: Flickable.StopAtBounds
                    ScrollBar.vertical: ScrollBar { }
                    Text {
                        id: whyText
                        objectName: "whyText"
                        width: whyFlick.width - 8
                        wrapMode: Text.WordWrap
                        textFormat: Text.StyledText
                        font.pixelSize: root.fs * 0.8
                        color: "#cfe3d6"
                        text: {
                            var out = [];
                            for (var i = 0; i < controls.whyLines.length; i++)
                                out.push("<b>" + controls.whyLines[i][0] + "</b>: " + controls.whyLines[i][1]);
                            return out.length ? "Not now —<br>" + out.join("<br>") : "";
                        }
                        Accessible.role: Accessible.StaticText
                        Accessible.name: "Why some buttons are off"
                        Accessible.description: text.replace(/<[^>]*>/g, " ")
                    }
                }
                Item { Layout.fillHeight: !root.portrait && !whyFlick.visible; Layout.preferredHeight: 0 }
            }

            // ---------------- history
            Rectangle {
                id: historyPanel
                objectName: "history"
                Layout.fillWidth: root.portrait
                Layout.fillHeight: true
                Layout.preferredWidth: root.portrait ? -1 : Math.max(190, root.fs * 15)
                Layout.minimumHeight: root.portrait ? root.fs * 4 : 0
                Layout.verticalStretchFactor: 2
                radius: root.fs * 0.5
                color: "#10251b"
                border.color: "#2f5a45"
                Accessible.role: Accessible.List
                Accessible.name: "History"
                ColumnLayout {
                    anchors.fill: parent
                    anchors.margins: root.gap * 0.7
                    spacing: 2
                    Text {
                        Layout.fillWidth: true
                        text: "History"
                        font.pixelSize: root.fs * 0.95
                        font.bold: true
                        color: "#f2c14e"
                    }
                    Text {
                        Layout.fillWidth: true
                        text: "Current: Pass " + bridge.contractPass + " · Don't Pass " + bridge.contractDontPass
                        font.pixelSize: root.fs * 0.8
                        color: "#fdf6e3"
                        elide: Text.ElideRight
                    }
                    Text {
                        objectName: "historyEmpty"
                        visible: historyList.count === 0
                        Layout.fillWidth: true
                        Layout.fillHeight: true  // takes the list's place, so the heading stays on top
                        verticalAlignment: Text.AlignTop
                        text: "Contracts, throws, settlements and refunds appear here."
                        wrapMode: Text.WordWrap
                        font.pixelSize: root.fs * 0.82
                        color: "#9fb8aa"
                    }
                    ListView {
                        id: historyList
                        visible: count > 0
                        objectName: "historyList"
                        Layout.fillWidth: true
                        Layout.fillHeight: true
                        clip: true
                        model: bridge.history
                        spacing: 1
                        boundsBehavior: Flickable.StopAtBounds
                        ScrollBar.vertical: ScrollBar { }
                        onCountChanged: Qt.callLater(positionViewAtEnd)
                        delegate: Text {
                            required property var modelData
                            width: historyList.width - 8
                            text: modelData.text
                            wrapMode: Text.WordWrap
                            font.pixelSize: modelData.kind === "hand" ? root.fs * 0.9 : root.fs * 0.82
                            font.bold: modelData.kind === "contract" || modelData.kind === "hand"
                            topPadding: modelData.kind === "hand" ? 4 : 0
                            color: modelData.kind === "hand" ? "#f2c14e"
                                 : modelData.kind === "win" ? "#8fe3a7"
                                 : modelData.kind === "loss" ? "#ff9a8a"
                                 : modelData.kind === "refund" || modelData.kind === "change" ? "#ffd98a"
                                 : modelData.kind === "throw" ? "#cfe3d6" : "#fdf6e3"
                            Accessible.role: modelData.kind === "hand" ? Accessible.Heading : Accessible.ListItem
                            Accessible.name: text
                        }
                        // The hand being read stays named at the top while its lines scroll.
                        Rectangle {
                            id: stickyHand
                            objectName: "stickyHand"
                            // Recomputed whenever the list scrolls or its rows change (indexAt is a
                            // function call, which a binding would not re-run on its own).
                            property string hand: ""
                            property real cover: 0
                            function update() {
                                var top = historyList.indexAt(4, historyList.contentY + 2);
                                var row = top >= 0 ? historyList.model[top] : null;
                                hand = row && row.kind !== "hand" ? row.hand : "";
                                var under = historyList.indexAt(4, historyList.contentY + textHeight);
                                var item = under >= 0 ? historyList.itemAtIndex(under) : null;
                                cover = item ? item.y + item.height - historyList.contentY : 0;
                            }
                            Connections {
                                target: historyList
                                function onContentYChanged() { stickyHand.update(); }
                                function onCountChanged() { Qt.callLater(stickyHand.update); }
                                function onContentHeightChanged() { Qt.callLater(stickyHand.update); }
                                function onHeightChanged() { Qt.callLater(stickyHand.update); }
                            }
                            visible: hand.length > 0
                            parent: historyList
                            x: 0; y: 0; z: 3
                            width: historyList.width - 8
                            // Tall enough to hide the row its lower edge would cut in half.
                            readonly property real textHeight: stickyText.implicitHeight + 4
                            height: Math.max(textHeight, cover)
                            color: "#10251b"
                            Text {
                                id: stickyText
                                anchors.top: parent.top
                                text: "Hand " + stickyHand.hand
                                font.pixelSize: root.fs * 0.9
                                font.bold: true
                                color: "#f2c14e"
                                Accessible.ignored: true
                            }
                        }
                    }
                }
            }
        }

        // -------------------------------------------------------- footer
        Text {
            id: footer
            objectName: "footer"
            Layout.fillWidth: true
            text: "<b><font color='#f2c14e'>" + root.freeText + "</font></b> · " + root.hintText
                  + (bridge.windowMode === "fullscreen" && !bridge.mobile ? " · the Window button leaves fullscreen" : "")
            textFormat: Text.StyledText
            wrapMode: Text.WordWrap
            maximumLineCount: root.portrait ? 2 : 1
            font.pixelSize: Math.max(10.5, root.fs * 0.72)
            color: "#d5e6dc"
            Accessible.role: Accessible.StaticText
            Accessible.name: root.freeText + ". " + root.hintText
        }
    }

    // ------------------------------------------------------------ help
    Rectangle {
        id: helpOverlay
        objectName: "helpOverlay"
        anchors.fill: parent
        visible: bridge.helpOpen
        color: "#d8061a10"
        MouseArea { objectName: "blockerHelp"; anchors.fill: parent; acceptedButtons: Qt.AllButtons; onWheel: function(w) { w.accepted = true } }
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
                    text: "Help — solo is paused"
                    font.family: "DejaVu Serif"
                    font.pixelSize: root.fs * 1.3
                    font.bold: true
                    color: "#f2c14e"
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
                        Accessible.name: "Rules and keys"
                        text: bridge.texts.helpHtml
                    }
                }
                HelpExtras { fs: root.fs * 0.9; gap: root.gap }  // gui-extras: Stats and the guide from Help
                RowLayout {
                Layout.fillWidth: true
                spacing: root.gap
                GameButton {
                    objectName: "btnMotion"
                    Layout.fillWidth: true
                    fs: root.fs * 0.9
                    text: bridge.reduceMotion ? "Reduce motion: on" : "Reduce motion: off"
                    hint: bridge.reduceMotion ? "Animate the dice, outcomes and balance again"
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
    }
    // ------------------------------------------------------------ pause
    Rectangle {
        id: pauseOverlay
        objectName: "pauseOverlay"
        anchors.fill: parent
        visible: bridge.paused && !bridge.helpOpen && !bridge.askingNewSession
        color: "#c8061a10"
        MouseArea { objectName: "blockerPause"; anchors.fill: parent; acceptedButtons: Qt.AllButtons }
        Rectangle {
            anchors.centerIn: parent
            width: Math.min(parent.width - root.gap * 2, root.fs * 22)
            height: pauseCol.implicitHeight + root.gap * 2
            radius: root.fs * 0.6
            color: "#123d2b"
            border.color: "#f2c14e"
            border.width: 2
            Accessible.role: Accessible.Dialog
            Accessible.name: "Paused"
            ColumnLayout {
                id: pauseCol
                anchors.fill: parent
                anchors.margins: root.gap
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
                    text: "Leave fullscreen"
                    hint: "Back to a standard window; the session is kept"
                    onActivated: bridge.setWindowMode("standard")
                }
            }
        }
    }
    onPausedChanged: if (paused) Qt.callLater(function() { resumeButton.forceActiveFocus(); }); else Qt.callLater(root.restoreFocus)
    readonly property bool paused: bridge.paused

    // ------------------------------------------------------------ new-session question
    Rectangle {
        id: askOverlay
        objectName: "askOverlay"
        anchors.fill: parent
        visible: bridge.askingNewSession
        color: "#d8061a10"
        MouseArea { objectName: "blockerAsk"; anchors.fill: parent; acceptedButtons: Qt.AllButtons }
        Rectangle {
            anchors.centerIn: parent
            width: Math.min(parent.width - root.gap * 2, root.fs * 28)
            height: askCol.implicitHeight + root.gap * 2
            radius: root.fs * 0.6
            color: "#123d2b"
            border.color: "#f2c14e"
            border.width: 2
            Accessible.role: Accessible.Dialog
            Accessible.name: "Start a new session?"
            ColumnLayout {
                id: askCol
                anchors.fill: parent
                anchors.margins: root.gap
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
    }
    // gui-extras: Stats, the first-hand guide and the close question (on top of the rest)
    StatsView { fs: root.fs; gap: root.gap }
    Guide { fs: root.fs; gap: root.gap }
    CloseAsk { fs: root.fs; gap: root.gap }
}
