import QtQuick
import QtQuick.Layouts
import QtQuick.Controls.Basic
import Pointline.Seat

// The one table: felt (point boxes, puck, dice, the two lines, the result view), the chip
// selector, the action buttons and the history, fed by a SeatTable (gui/seat_table.py). The
// solo and the online screens both use it; extra buttons go inside it (they join the grid).
// A screen adds its own parts through two slots: ``controlsTop`` (above the status line, e.g.
// the online countdown) and ``side`` (above the history, e.g. the online seats).
Item {
    id: view
    required property SeatTable table
    property real fs: 14
    // A phone (touch; bridge.mobile): the felt first, one main action under the thumb, the
    // history in a drawer and the screen's own buttons in a menu, and no text under 11 pt
    // (its base size is raised; the texts of the table scale from ``tfs``).
    // (a screen where nothing can be played, a replay, keeps its own layout)
    readonly property bool phone: view.table.mobile === true && view.actionsShown
    readonly property bool phoneLandscape: phone && !portrait
    // a small phone on its side (Android 640x360: 544 px between the bars): a narrower rail
    // and one column of actions, so the felt keeps half the screen
    // (and a phone on its side at a larger text size: its actions need the column's width)
    readonly property bool phoneCompact: phoneLandscape && (width < 600 || fontScale > 1.15)
    // a small phone at a larger text size (360x640 or 640x360 at 130%, issue 39): the header
    // row, the status and the main action take less room, the idle dice shrink (they grow to
    // 64 px and more during a throw, in the middle of the felt) and the two lines keep their
    // tap height first
    readonly property bool tight: phone && fontScale > 1.15 && (portrait ? height < 560 : width < 600)
    // the secondary actions' text (smaller than the main action's)
    // the felt's least height on a phone upright: its header row and both lines at a thumb's
    // 48 px (the status, the chips and the actions give way first)
    // (after a session: the result's words, its chart and the Stats button instead)
    readonly property real linesMinimum: (felt.border.width + view.gap * 0.6) * 2 + topRow.implicitHeight + view.gap * 0.8
        + (view.table && view.table.isOver ? resultView.implicitHeight : view.gap * 0.8 + 2 * 48)
    readonly property real sfs: phoneCompact || tight ? Math.max(13 * fontScale, fs) : tfs
    // the system's text size (the screen's bridge.fontScale) raises a phone's floor too
    property real fontScale: 1
    readonly property real tfs: phone ? Math.max(fs, 15 * fontScale) : fs
    property real gap: Math.max(6, fs * 0.5)
    property bool portrait: height > width
    property bool shortLandscape: false
    // Solo pauses (Pause, Help, a question): every animation of the throw stops where it is.
    property bool frozen: false
    // Where paid chips slide to (the balance in the header); null: they fade where they are.
    property Item balanceTarget: null
    // a screen that keeps a record of sessions offers it under the result (solo: Stats)
    property bool statsOffered: false
    signal statsRequested()
    default property alias extraButtons: extras.data
    property alias controlsTop: topSlot.data
    property alias side: sideSlot.data
    // The screen's names for its parts: "" keeps "felt", "linePass"...; "online" makes
    // "onlineFelt", "onlineLinePass"... (each screen's tests and checks find its own).
    property string namePrefix: ""
    function named(base) {
        return namePrefix.length > 0 ? namePrefix + base.charAt(0).toUpperCase() + base.slice(1) : base;
    }
    property string tableName: "Table"
    property string historyTitle: "History"
    // a screen with side parts may keep the history for windows tall enough for both
    property bool historyShown: true
    // the height the side parts need at least (online, portrait: four seats in sight)
    property real sideMinimumHeight: 0
    property int extraColumns: view.phone ? 1 : view.portrait || view.shortLandscape ? 3 : 2
    // a screen where nothing can be played (a replay) leaves out the chips and the actions
    property bool actionsShown: true
    // a screen that lays out its own parts around the felt (a replay on a phone): the felt alone
    property bool feltOnly: false
    readonly property alias tableArea: tableArea
    readonly property alias buttonGrid: extras
    readonly property bool motion: !table.reduceMotion
    // the screen has side parts of its own (online: the seats)
    readonly property bool hasSide: view.side.length > 0
    // a phone's history drawer or menu is open: it keeps the keys (a click on the table under
    // it, or the screen's focus policy, does not take them back)
    readonly property bool sheetOpen: historyDrawer.visible || menuCard.visible
    // a phone's main action: the largest control
    readonly property real mainHeight: view.tight ? 52 : view.phoneCompact ? 54 * view.fontScale : Math.max(64, view.tfs * 4.2)
    // after a session, the main action starts the next (as the screen's New session does)
    readonly property bool playAgainOffered: typeof view.table.askNewSession === "function"

    // Focus stays on what the player chose: when the focused control turns off, focus returns
    // to the table (the selected line), never to a neighbouring action.
    property Item lastControl: null
    function isControl(it) {
        return it !== null && it !== undefined && it.tableControl === true && it.visible && it.enabled;
    }
    function focusTable() { tableArea.forceActiveFocus(); }
    function restoreFocus() {
        if (isControl(lastControl)) lastControl.forceActiveFocus();
        else tableArea.forceActiveFocus();
    }
    Connections {
        target: view.Window.window
        function onActiveFocusItemChanged() {
            var f = view.Window.activeFocusItem;
            if (f && f.tableControl === true) view.lastControl = f;
        }
    }
    Connections {
        target: view.lastControl
        ignoreUnknownSignals: true
        function onEnabledChanged() {
            var it = view.lastControl;
            if (it && !it.enabled) {
                view.lastControl = null;
                // (an open sheet keeps the keys; it gives them to the table when it closes)
                if (!view.frozen && !view.sheetOpen) tableArea.forceActiveFocus();
            }
        }
    }

    // While the table itself has the focus, its keys are plain keys (tableArea's Keys below), not
    // Shortcuts: under a screen reader Qt's AT-SPI bridge holds each plain key until the reader
    // has seen it (it may be the reader's own), while a Shortcut acts as its key arrives, so a
    // Shortcut overtook the Space pressed before it (Space then Right put the chip on Don't
    // Pass: tests/realinput/test_key_order.py). The screen's Shortcuts act when the focus is
    // elsewhere (a chip, a button); the screen does what a key means (keyAction), in one place.
    readonly property bool tableFocused: view.Window.activeFocusItem === tableArea
    signal keyAction(string name)
    readonly property var plainKeys: ({
        [Qt.Key_Up]: "pass", [Qt.Key_Left]: "pass",
        [Qt.Key_Down]: "dont_pass", [Qt.Key_Right]: "dont_pass",
        [Qt.Key_Backspace]: "reset", [Qt.Key_Delete]: "reset",
        [Qt.Key_M]: "mute", [Qt.Key_R]: "repeat"
    })
    function repeatKey() {
        if (!view.frozen && view.table.comeOut)
            view.table.repeatLastBet();
    }
    Shortcut {
        sequence: "R"; autoRepeat: false; enabled: !view.tableFocused
        onActivated: view.repeatKey()
    }

    GridLayout {
        id: content
        anchors.fill: parent
        columns: view.portrait ? 1 : 3
        rowSpacing: view.gap
        columnSpacing: view.gap

        // ---------------- the rail (a phone on its side): the drawer and menu buttons at the
        // top, the chips at the left thumb
        Item {
            id: rail
            objectName: "rail"
            visible: view.phoneLandscape
            Layout.fillHeight: true
            Layout.preferredWidth: view.phoneCompact ? 54 : Math.max(64, view.tfs * 4.4)
        }

        // ---------------- felt
        Rectangle {
            id: felt
            objectName: view.named("felt")
            property string designRole: "felt"
            Layout.fillWidth: true
            Layout.fillHeight: true
            // (a phone upright: the header row and both lines at their tap height at least)
            Layout.minimumHeight: view.portrait ? (view.phone ? Math.max(150, view.linesMinimum) : Math.max(200, view.tfs * 16)) : 0
            Layout.verticalStretchFactor: 3
            Layout.horizontalStretchFactor: 3
            radius: view.tfs * 1.2
            border.width: view.tight ? 6 : Math.max(5, view.tfs * 0.5)
            border.color: "#5a3a1e"
            gradient: Gradient {
                GradientStop { position: 0.0; color: "#1c7a4d" }
                GradientStop { position: 1.0; color: "#0e5233" }
            }

            // A tap anywhere on the felt during a throw's result shows it at once (and takes
            // the callout away after it); it never submits (a line's own tap does the same then).
            MouseArea {
                id: skipArea
                objectName: view.named("skipArea")
                anchors.fill: parent
                readonly property bool armed: view.table.revealStage !== "" || view.table.callout !== ""
                acceptedButtons: armed ? Qt.LeftButton : Qt.NoButton
                onClicked: view.skipMoment()
            FocusScope {
                id: tableArea
                objectName: "tableArea"
                readonly property bool tableControl: true
                anchors.fill: parent
                anchors.margins: felt.border.width + view.gap * 0.6
                activeFocusOnTab: false
                // Where am I (issue 40): the table's name and its summary (hand, phase, point,
                // balance) and the keys, as they are when the focus comes (back) to the table:
                // what a reader says then and what Orca's Where Am I reads. Not kept live: a
                // change of the focused table's name or description is spoken, so each change
                // would be said twice (the announcer says it already).
                // So: they hold still while the focus is on the table, and follow it again once
                // the focus has moved on (later: a change while the reader is still on the table
                // is spoken), so they are right when the focus comes back, with no change then.
                readonly property string liveName: view.table.summary ? view.tableName + ", " + view.table.summary : view.tableName
                property string spokenName: liveName
                property string spokenKeys: view.table.keysHint
                function follow() {
                    if (activeFocus)
                        return;
                    spokenName = Qt.binding(function() { return tableArea.liveName; });
                    spokenKeys = Qt.binding(function() { return view.table.keysHint; });
                }
                onActiveFocusChanged: {
                    if (activeFocus) {
                        spokenName = liveName;
                        spokenKeys = view.table.keysHint;
                    } else {
                        Qt.callLater(follow);
                    }
                }
                Accessible.role: Accessible.Pane
                Accessible.name: spokenName
                Accessible.description: spokenKeys
                // A held key's repeats never get here (gui/keys.py drops them for every window).
                Keys.onPressed: function(event) {
                    if (event.key === Qt.Key_Space) {
                        view.table.tableKey("space"); event.accepted = true;
                    } else if (event.key === Qt.Key_Return || event.key === Qt.Key_Enter) {
                        view.table.tableKey("enter"); event.accepted = true;
                    } else if (view.tableFocused && view.plainKeys[event.key] !== undefined
                               && (event.modifiers & ~Qt.KeypadModifier) === Qt.NoModifier) {
                        var name = view.plainKeys[event.key];
                        if (name === "repeat") view.repeatKey();
                        else view.keyAction(name);
                        event.accepted = true;
                    }
                }
                Keys.onReleased: function(event) {
                    if (event.key === Qt.Key_Space || event.key === Qt.Key_Return || event.key === Qt.Key_Enter)
                        view.table.keyReleased();
                }

                ColumnLayout {
                    anchors.fill: parent
                    spacing: view.gap * 0.8

                    RowLayout {
                        id: topRow
                        Layout.fillWidth: true
                        spacing: view.gap
                        Puck {
                            id: puck
                            objectName: view.named("puck")
                            size: view.tight ? 48 : Math.max(44, view.tfs * 3.2)
                            point: view.table.point
                        }
                        ColumnLayout {
                            Layout.fillWidth: true
                            spacing: 2
                            // The phase, or the felt's message after a throw ("Point 6 is ON"):
                            // in the row's own place, never over a line.
                            Text {
                                id: feltTitle
                                objectName: "feltTitle"
                                Layout.fillWidth: true
                                readonly property bool message: view.table.feltMessage.length > 0 && !view.table.isOver
                                text: message ? view.table.feltMessage : view.table.feltTitle
                                font.family: "DejaVu Serif"
                                font.pixelSize: view.tight ? view.sfs : view.tfs * 1.2
                                font.bold: true
                                color: message ? "#fff0b8" : "#fdf6e3"  // 4.6:1 at least on the felt
                                wrapMode: Text.WordWrap
                                maximumLineCount: 2
                                fontSizeMode: Text.HorizontalFit
                                minimumPixelSize: Math.max(11, view.tfs * 0.8)
                                // Two lines are always kept for it: a message after a hand
                                // never moves the lines below.
                                Layout.preferredHeight: Math.ceil(titleMetrics.lineSpacing * 2) + 1
                                verticalAlignment: Text.AlignBottom
                                FontMetrics { id: titleMetrics; font: feltTitle.font }
                                Accessible.role: Accessible.StaticText
                                Accessible.name: text
                            }
                            RowLayout {
                                objectName: view.named("pointBoxes")
                                Layout.fillWidth: true
                                spacing: 2
                                Repeater {
                                    model: view.table.pointNumbers
                                    Rectangle {
                                        required property int modelData
                                        readonly property bool on: view.table.point === modelData
                                        objectName: "pointBox" + modelData
                                        Layout.fillWidth: true
                                        Layout.maximumWidth: view.tfs * 3.2
                                        Layout.preferredHeight: Math.max(18, view.tight ? view.sfs * 1.2 : view.tfs * 1.5)
                                        radius: 3
                                        color: on ? "#fdfdfd" : "transparent"
                                        border.color: "#e8e2cf"
                                        border.width: 1
                                        Accessible.ignored: true
                                        Text {
                                            anchors.centerIn: parent
                                            text: parent.modelData
                                            font.pixelSize: view.tfs * (view.tight ? 0.8 : 0.95)
                                            font.bold: true
                                            color: parent.on ? "#8b1a1a" : "#fdf6e3"
                                        }
                                    }
                                }
                            }
                        }
                        // The dice's place between throws (ThrowStage draws them: in the middle
                        // of the felt during a throw's result, here otherwise).
                        Item {
                            id: diceHome
                            objectName: view.named("diceHome")
                            // a phone: the dice at least 64 px
                            // (a small phone at a larger text size: smaller, so the point boxes fit)
                            readonly property real size: view.tight ? 36 : view.phone ? Math.max(64, puck.size * 0.92) : puck.size * 0.92
                            Layout.preferredWidth: size * 2 + view.gap
                            Layout.preferredHeight: size
                        }
                    }

                    LineArea {
                        id: passArea
                        objectName: view.named("linePass")
                        visible: !view.table.isOver
                        Layout.fillWidth: true
                        Layout.fillHeight: true
                        title: "PASS LINE"
                        line: "pass"
                        fs: view.tight ? view.sfs : view.tfs
                        tone: "#c0392b"
                        table: view.table
                        reasonShown: false
                        focusRing: tableArea.activeFocus && selected
                        onTapped: view.tapLine("pass")
                    }
                    LineArea {
                        id: dpArea
                        objectName: view.named("lineDontPass")
                        visible: !view.table.isOver
                        Layout.fillWidth: true
                        Layout.fillHeight: true
                        title: "DON'T PASS BAR"
                        line: "dont_pass"
                        fs: view.tight ? view.sfs : view.tfs
                        tone: "#2c3e50"
                        table: view.table
                        reasonShown: false
                        focusRing: tableArea.activeFocus && selected
                        onTapped: view.tapLine("dont_pass")
                    }

                    // ---------------- result view
                    ColumnLayout {
                        id: resultView
                        objectName: "resultView"
                        visible: view.table.isOver
                        Layout.fillWidth: true
                        Layout.fillHeight: true
                        spacing: view.gap * 0.5
                        Text {
                            Layout.fillWidth: true
                            text: view.table.endTitle
                            font.pixelSize: view.tight ? view.sfs * 1.1 : view.tfs * 1.3
                            font.bold: true
                            color: "#fff0c2"
                            wrapMode: Text.WordWrap
                            Accessible.role: Accessible.StaticText
                            Accessible.name: text
                        }
                        Text {
                            Layout.fillWidth: true
                            text: view.table.endNote
                            font.pixelSize: view.tight ? Math.max(12, view.sfs * 0.8) : view.tfs * 0.9
                            color: "#fdf6e3"
                            wrapMode: Text.WordWrap
                        }
                        BalanceChart {
                            objectName: "chart"
                            Layout.fillWidth: true
                            Layout.fillHeight: true
                            Layout.minimumHeight: 40
                            samples: view.table.chart
                            start: view.table.startingPoints
                            fs: view.tight ? view.sfs : view.tfs
                        }
                        GameButton {
                            objectName: "btnStats"
                            visible: view.statsOffered
                            Layout.fillWidth: true
                            fs: view.tight ? view.sfs : view.tfs
                            text: "Stats: all your sessions"
                            hint: "Your finished sessions and their balance charts"
                            onActivated: view.statsRequested()
                        }
                    }
                }
            }
            }
            ThrowStage {
                id: throwStage
                anchors.fill: parent
                table: view.table
                diceName: view.named("dice")
                calloutName: view.named("callout")
                homeSize: diceHome.size
                homeAt: Qt.point(tableArea.x + topRow.x + diceHome.x, tableArea.y + topRow.y + diceHome.y)
                gap: view.gap
                fs: view.tfs
                frozen: view.frozen
            }
            ChipFlights {
                objectName: "chipFlights"
                anchors.fill: parent
                table: view.table
                lines: [passArea, dpArea]
                target: view.balanceTarget
                frozen: view.frozen
                enabled: view.motion
            }
        }

        // ---------------- controls
        ColumnLayout {
            id: controls
            Layout.fillWidth: view.portrait
            Layout.preferredWidth: view.portrait ? -1 : view.tight ? 122 : view.phoneCompact ? 118 * view.fontScale : view.phoneLandscape ? Math.max(190, view.tfs * 12.6)
                : view.shortLandscape ? Math.max(300, view.tfs * 22) : Math.max(236, view.tfs * 15)
            Layout.fillHeight: !view.portrait
            spacing: view.gap * 0.6
            visible: !view.feltOnly

            // a phone: the history drawer and the menu, away from the main action (sideways:
            // at the top of the rail)
            Item {
                id: phoneBarHolder
                Layout.fillWidth: true
                visible: view.phone && !view.phoneLandscape
                implicitHeight: phoneBar.implicitHeight
            }
            GridLayout {
                id: phoneBar
                objectName: "phoneBar"
                visible: view.phone
                parent: view.phoneLandscape ? rail : phoneBarHolder
                anchors.left: parent.left
                anchors.right: parent.right
                anchors.top: parent.top
                columns: view.phoneLandscape ? 1 : 2
                rowSpacing: view.gap * 0.6
                columnSpacing: view.gap * 0.6
                GameButton {
                    id: btnHistory
                    objectName: "btnHistory"; Layout.fillWidth: true; fs: Math.min(view.tfs, view.phoneCompact ? 11 : 13)
                    leftPadding: view.phoneCompact ? 2 : 4; rightPadding: leftPadding
                    text: view.hasSide ? "Seats and history" : "History"
                    hint: "Every throw, contract and refund of this session"
                    onActivated: historyDrawer.open()
                }
                GameButton {
                    id: btnMenu
                    objectName: "btnMenu"; Layout.fillWidth: true; fs: Math.min(view.tfs, view.phoneCompact ? 11 : 13)
                    leftPadding: view.phoneCompact ? 2 : 4; rightPadding: leftPadding
                    text: "Menu"
                    hint: "Help, sound, playing online and a new session"
                    onActivated: menuCard.open()
                }
            }

            // the screen's own parts above the status line (online: the countdown)
            ColumnLayout {
                id: topSlot
                Layout.fillWidth: true
                visible: children.length > 0
                spacing: view.gap * 0.6
            }

            Text {
                id: liveText
                objectName: view.named("liveText")
                Layout.fillWidth: true
                // Its lines are always reserved: a longer or shorter status never moves the buttons.
                readonly property int lines: view.phone && view.portrait ? 2 : view.tight ? 5 : view.phoneCompact ? 4 : 3
                Layout.preferredHeight: Math.ceil(fontMetrics.lineSpacing * lines) + 2
                text: view.table.status
                color: view.table.notice.length > 0 ? "#ffd98a" : "#e8f3ec"
                font.pixelSize: view.tight ? 11 * (view.portrait ? view.fontScale : 1) : view.phoneCompact ? 11 * view.fontScale : view.tfs * 0.95
                wrapMode: Text.WordWrap
                maximumLineCount: lines
                // A long status (a throw's result and the next round's words) shrinks a little
                // to be read whole in its reserved lines, rather than cut.
                fontSizeMode: Text.Fit
                minimumPixelSize: Math.max(11, view.tfs * 0.7)
                elide: Text.ElideRight
                verticalAlignment: Text.AlignVCenter
                Accessible.role: Accessible.StaticText
                Accessible.name: text
                FontMetrics { id: fontMetrics; font.pixelSize: liveText.font.pixelSize }
            }

            // The chips take their row at the come-out; the row keeps its place after it
            // (a phone on its side: the rail at the left edge, at thumb height).
            Item {
                id: chipHolder
                Layout.fillWidth: true
                // a phone after a session: nothing to bet, the row collapses
                visible: view.actionsShown && !view.phoneLandscape && !(view.phone && view.table.isOver)
                implicitHeight: chipRow.implicitHeight
                ChipSelector {
                    id: chipRow
                    objectName: "chips"
                    parent: view.phoneLandscape ? rail : chipHolder
                    anchors.left: parent.left
                    anchors.right: parent.right
                    anchors.bottom: view.phoneLandscape ? parent.bottom : undefined
                    anchors.top: view.phoneLandscape ? undefined : parent.top
                    vertical: view.phoneLandscape
                    // (the rail of a small phone at a larger text size: the chips alone)
                    labelShown: !(view.tight && view.phoneLandscape)
                    visible: view.table.comeOut && view.actionsShown
                    table: view.table
                    fs: view.tfs
                }
            }

            Item {
                id: extrasHolder
                Layout.fillWidth: true
                // a phone after a session: nothing can be played, the secondary row collapses
                // (the main action, Play again, keeps its place)
                visible: view.actionsShown && !(view.phone && view.table.isOver)
                implicitHeight: buttons.implicitHeight + (view.phone ? 0 : extras.implicitHeight + view.gap)
                // A tap or hover on a control that is off says why (touch has no hover): the
                // dimmed buttons let the pointer through to this area behind them.
                // A pointer resting on a dimmed button: the button takes no hover, and under a
                // real X server it hides the hover from the area below it too, so a handler on
                // this holder (the parent of both) follows the pointer (issue 38, finding 4).
                HoverHandler {
                    objectName: "hoverBehindButtons"
                    onPointChanged: if (hovered) behind.hoverAt(point.position.x, point.position.y)
                    onHoveredChanged: if (!hovered) behind.said = null
                }
                MouseArea {
                    id: behind
                    objectName: "behindButtons"
                    anchors.fill: parent
                    property Item said: null
                    // the dimmed button pointed at shows its reason (GameButton's tool tip)
                    onSaidChanged: pointAt(said)
                    property Item pointedAt: null
                    function pointAt(hit) {
                        if (pointedAt && pointedAt !== hit) pointedAt.pointed = false;
                        pointedAt = hit;
                        if (hit) hit.pointed = true;
                    }
                    function offAt(x, y) {
                        var grid = y < buttons.height ? buttons : extras;
                        var hit = grid.childAt(x, y - grid.y);
                        return hit && !hit.enabled && hit.actionName ? hit : null;
                    }
                    onClicked: function(mouse) {
                        var hit = offAt(mouse.x, mouse.y);
                        if (hit) view.table.explain(hit.actionName);
                        pointAt(hit);
                    }
                    function hoverAt(x, y) {
                        var hit = offAt(x, y);
                        if (hit && hit !== said) view.table.explain(hit.actionName);
                        said = hit;
                    }
                }
                // The actions of this phase: four places, the same at the come-out and after.
                GridLayout {
                    id: buttons
                    objectName: view.named("buttons")
                    anchors.left: parent.left
                    anchors.right: parent.right
                    // Four in a row on phones: the actions of a phase take one row there.
                    columns: view.phoneCompact ? 1 : view.phoneLandscape ? 2 : view.portrait ? (view.phone ? 3 : 4) : view.shortLandscape ? 4 : 2
                    rowSpacing: view.gap * 0.6
                    columnSpacing: view.gap * 0.6
                    readonly property bool comeOut: !view.table.pointPhase

                    GameButton {
                        objectName: "btnAllocate"; Layout.fillWidth: true; fs: view.sfs
                        visible: buttons.comeOut
                        actionName: "allocate"; table: view.table; primary: true
                        text: (view.table.texts.allocate || "") + " " + view.table.chip
                        hint: "Put a " + view.table.chip + " chip on " + (view.table.selectedLine === "pass" ? "Pass" : "Don't Pass")
                        onActivated: view.table.act("allocate")
                    }
                    GameButton {
                        objectName: "btnConfirm"; Layout.fillWidth: true; fs: view.phone ? view.tfs * 1.2 : view.tfs
                        property string designRole: "main"
                        parent: view.phone ? mainSlot : buttons
                        Layout.fillHeight: view.phone
                        visible: buttons.comeOut && !(view.phone && view.table.isOver)
                        actionName: "confirm"; table: view.table; primary: true
                        text: view.table.confirmLabel
                        hint: view.table.confirmLabel === "Confirm" ? "Seal the draft as this hand's contracts and throw"
                              : "Skip this hand with nothing on the lines; the dice still roll"
                        onActivated: view.table.act("confirm")
                    }
                    GameButton {
                        objectName: "btnRepeat"; Layout.fillWidth: true; fs: view.sfs
                        visible: buttons.comeOut
                        actionName: "repeat"; table: view.table
                        text: view.table.texts.repeat || ""
                        hint: view.table.repeatText
                        onActivated: view.table.repeatLastBet()
                    }
                    GameButton {
                        objectName: "btnReduce"; Layout.fillWidth: true; fs: view.sfs
                        visible: !buttons.comeOut
                        actionName: "reduce"; table: view.table
                        text: view.table.texts.reduce || ""
                        hint: view.table.texts.reduceHint || ""
                        onActivated: view.table.act("reduce")
                    }
                    GameButton {
                        objectName: "btnRemove"; Layout.fillWidth: true; fs: view.sfs
                        visible: !buttons.comeOut
                        actionName: "remove"; table: view.table
                        text: "Remove Don't Pass"
                        hint: "Prepare removing Don't Pass, refunded when you roll"
                        onActivated: view.table.act("remove")
                    }
                    GameButton {
                        objectName: "btnRoll"; Layout.fillWidth: true; fs: view.phone ? view.tfs * 1.2 : view.tfs
                        property string designRole: "main"
                        parent: view.phone ? mainSlot : buttons
                        Layout.fillHeight: view.phone
                        visible: !buttons.comeOut && !(view.phone && view.table.isOver)
                        actionName: "roll"; table: view.table; primary: true
                        text: "Roll"
                        hint: "Seal the remaining contracts and throw the dice"
                        onActivated: view.table.act("roll")
                    }
                    GameButton {
                        objectName: "btnReset"; Layout.fillWidth: true; fs: view.sfs
                        actionName: "reset"; table: view.table
                        text: "Reset"
                        hint: "Restore the draft to what was last sealed"
                        onActivated: view.table.act("reset")
                    }
                }
                // The screen's own buttons (Help, sound, window, leaving), below the actions.
                GridLayout {
                    id: extras
                    objectName: "extraButtons"
                    parent: view.phone ? menuBox : extrasHolder
                    anchors.left: parent.left
                    anchors.right: parent.right
                    y: view.phone ? 0 : buttons.height + view.gap
                    columns: view.extraColumns
                    rowSpacing: view.gap * 0.6
                    columnSpacing: view.gap * 0.6
                }
            }
            Item { Layout.fillHeight: !view.portrait; Layout.preferredHeight: 0 }
            // a phone: the one main action of the state, the largest control, at the bottom
            // (under the thumb; its place is the same in every state)
            ColumnLayout {
                id: mainSlot
                objectName: "mainSlot"
                visible: view.phone && view.actionsShown
                Layout.fillWidth: true
                Layout.preferredHeight: view.mainHeight
                Layout.maximumHeight: view.mainHeight
                GameButton {
                    objectName: "btnPlayAgain"
                    property string designRole: "main"
                    visible: view.table.isOver && view.playAgainOffered
                    Layout.fillWidth: true
                    Layout.fillHeight: true
                    fs: view.tfs * 1.2
                    primary: true
                    text: view.table.texts.playAgain || "Play again"
                    hint: "Start a new session with 1,000 points"
                    onActivated: view.table.askNewSession()
                }
            }
        }

        // ---------------- the screen's side parts (online: the seats), then the history
        ColumnLayout {
            id: sideColumn
            visible: !view.phone && !view.feltOnly  // a phone: the side parts and the history are in the drawer
            Layout.fillWidth: view.portrait
            Layout.fillHeight: true
            Layout.preferredWidth: view.portrait ? -1 : Math.max(190, view.tfs * 15)
            Layout.minimumHeight: view.portrait
                ? Math.max(view.tfs * 4, view.sideMinimumHeight + (view.historyShown ? view.tfs * 4 : 0))
                : 0
            Layout.verticalStretchFactor: 2
            spacing: view.gap
            // with side parts, they and the history share the column evenly
            ColumnLayout {
                id: sideSlot
                parent: view.phone ? drawerSide : sideColumn
                Layout.fillWidth: true
                Layout.fillHeight: view.sideMinimumHeight <= 0
                Layout.preferredHeight: view.sideMinimumHeight > 0 ? view.sideMinimumHeight : 0
                Layout.minimumHeight: view.sideMinimumHeight
                visible: children.length > 0
                spacing: view.gap
            }
            HistoryPanel {
                objectName: view.named("history")
                visible: view.historyShown && !view.phone
                Layout.fillWidth: true
                Layout.fillHeight: true
                Layout.preferredHeight: sideSlot.visible ? 0 : -1
                title: view.historyTitle
                headingName: view.named("historyHeading")
                table: view.table
                fs: view.tfs
                gap: view.gap
            }
        }
    }

    // ---------------- a phone: the history in a drawer, the screen's buttons in a menu
    Popup {
        id: historyDrawer
        objectName: view.named("historyDrawer")
        parent: view  // inside the table's safe area
        modal: true
        readonly property Item win: view
        width: Math.min(win.width - view.gap * 2, view.tfs * 26)
        height: win.height
        x: win.width - width
        y: 0
        padding: view.gap
        background: Rectangle { color: "#0b2e20"; border.color: "#2f5a45"; radius: 8 }
        // the keys go to the open drawer, not to the table under it (Space placed a chip
        // behind it); Escape and Android's Back close it (the window's shortcuts are blocked
        // while a modal popup is open)
        focus: true
        Shortcut { sequences: ["Escape", "Back"]; autoRepeat: false; enabled: historyDrawer.opened; onActivated: historyDrawer.close() }
        // the item that takes the focus is a dialog a reader names (as TablePopup's cards)
        Component.onCompleted: view.nameSheet(historyDrawer, function() { return btnHistory.text; })
        onClosed: Qt.callLater(view.restoreFocus)
        ColumnLayout {
            anchors.fill: parent
            spacing: view.gap
            // the screen's side parts (online: the seats), above the history
            ColumnLayout {
                id: drawerSide
                Layout.fillWidth: true
                Layout.fillHeight: true
                visible: view.hasSide
            }
            HistoryPanel {
                objectName: view.named("historyInDrawer")
                Layout.fillWidth: true
                Layout.fillHeight: true
                title: view.historyTitle
                headingName: view.named("historyDrawerHeading")
                table: view.table
                fs: view.tfs
                gap: view.gap
            }
            GameButton {
                objectName: "btnHistoryClose"; Layout.fillWidth: true; fs: view.tfs
                text: "Close"
                onActivated: historyDrawer.close()
            }
        }
    }
    Popup {
        id: menuCard
        objectName: view.named("menu")
        parent: view  // inside the table's safe area
        modal: true
        readonly property Item win: view
        width: Math.min(win.width - view.gap * 2, view.tfs * 18)
        height: Math.min(win.height - view.gap * 2, menuColumn.implicitHeight + view.gap * 2)
        x: 0
        y: 0
        padding: view.gap
        background: Rectangle { color: "#0b2e20"; border.color: "#2f5a45"; radius: 8 }
        focus: true  // as the drawer: the keys go to the open menu
        Shortcut { sequences: ["Escape", "Back"]; autoRepeat: false; enabled: menuCard.opened; onActivated: menuCard.close() }
        Component.onCompleted: view.nameSheet(menuCard, function() { return btnMenu.text; })
        onClosed: Qt.callLater(view.restoreFocus)
        ColumnLayout {
            id: menuColumn
            anchors.fill: parent
            spacing: view.gap
            Item {
                id: menuBox
                Layout.fillWidth: true
                implicitHeight: extras.implicitHeight
            }
            GameButton {
                objectName: "btnMenuClose"; Layout.fillWidth: true; fs: view.tfs
                text: "Close"
                onActivated: menuCard.close()
            }
        }
    }

    // The throw's result shows at once (a tap on the felt); a replay has no moment to skip.
    function skipMoment() {
        if (typeof view.table.skipMoment === "function") view.table.skipMoment();
        tableArea.forceActiveFocus();
    }

    // A phone's sheet (the history drawer, the menu) as a reader meets it: a dialog named as
    // the button that opened it.
    function nameSheet(sheet, name) {
        var dialog = sheet.contentItem.parent;
        dialog.Accessible.role = Accessible.Dialog;
        dialog.Accessible.name = Qt.binding(name);
    }

    // A tap on a line selects it; at the come-out it also places the selected chip there,
    // later it says why the line takes no chip now (a reason on demand).
    function tapLine(line) {
        if (view.table.revealStage !== "") { view.skipMoment(); return; }  // never a submission
        if (view.table.comeOut) view.table.placeChip(line);
        else { view.table.selectLine(line); view.table.explain("allocate"); }
        tableArea.forceActiveFocus();
    }
}
