import QtQuick
import QtQuick.Layouts
import QtQuick.Controls.Basic

// Stats: every finished solo session (bridge.extras.sessions, newest first) with its balance
// chart. Opened from the result screen and from Help; Escape, Back or Close closes it. While it
// is open the bridge refuses every submission (gui/extras.py).
TablePopup {
    required property var bridge  // the solo table's bridge (Main.qml passes it)
    id: statsOverlay
    objectName: "statsOverlay"
    property real gap: 8
    readonly property bool portrait: Overlay.overlay.height > Overlay.overlay.width
    property int chosen: 0
    readonly property var rows: bridge.extras.sessions
    readonly property var row: rows.length > 0 ? rows[Math.min(chosen, rows.length - 1)] : null
    visible: bridge.extras.statsOpen
    title: "Stats"
    description: rows.length + " finished sessions"
    shade: "#e0061a10"
    width: Math.min(Overlay.overlay.width - leftMargin - rightMargin - gap * 2, fs * 60)
    height: Overlay.overlay.height - topMargin - bottomMargin - gap * 2

    function buttons() {
        var out = [];
        for (var i = 0; i < sessionList.count; i++) {
            var b = sessionList.itemAt(i);
            if (b && b.visible) out.push(b);
        }
        if (watchButton.visible) out.push(watchButton);
        if (openButton.visible) out.push(openButton);
        out.push(statsClose);
        return out;
    }
    function cycle(step) {
        var list = buttons(), at = list.indexOf(Overlay.overlay.Window.activeFocusItem);
        var next = list[(at + step + list.length) % list.length];
        next.forceActiveFocus(step > 0 ? Qt.TabFocusReason : Qt.BacktabFocusReason);
    }
    onAboutToShow: chosen = 0
    onOpened: (sessionList.count > 0 ? sessionList.itemAt(0) : statsClose).forceActiveFocus()
    onEscaped: bridge.escape()
    onMuteToggled: bridge.toggleMute()
    onClosed: giveBackFocus()

    ColumnLayout {
        anchors.fill: parent
        spacing: statsOverlay.gap * 0.6
        Keys.onTabPressed: function(event) { statsOverlay.cycle(1); event.accepted = true; }
        Keys.onBacktabPressed: function(event) { statsOverlay.cycle(-1); event.accepted = true; }
        Keys.onUpPressed: function(event) { if (statsOverlay.chosen > 0) { statsOverlay.chosen--; sessionList.itemAt(statsOverlay.chosen).forceActiveFocus(); } event.accepted = true; }
        Keys.onDownPressed: function(event) { if (statsOverlay.chosen < statsOverlay.rows.length - 1) { statsOverlay.chosen++; sessionList.itemAt(statsOverlay.chosen).forceActiveFocus(); } event.accepted = true; }
        RowLayout {
            Layout.fillWidth: true
            spacing: statsOverlay.gap
            Heading {
                Layout.fillWidth: true
                text: "Stats — your finished sessions"
                font.pixelSize: statsOverlay.fs * 1.3
                wrapMode: Text.WordWrap
            }
            GameButton {
                id: statsClose
                objectName: "btnStatsClose"
                Layout.preferredWidth: statsOverlay.fs * 8
                fs: statsOverlay.fs
                primary: true
                text: bridge.mobile ? "Close" : "Close (Esc)"
                hint: "Close Stats"
                onActivated: bridge.extras.closeStats()
            }
        }
        // desktop: any saved session (an online transcript, a solo session) through Qt's dialog
        GameButton {
            id: openButton
            objectName: "btnOpenReplay"
            visible: !bridge.mobile
            Layout.preferredWidth: Math.max(200, statsOverlay.fs * 16)
            fs: Math.max(11, statsOverlay.fs * 0.85)
            text: bridge.extras.openLabel
            hint: bridge.extras.openLabel
            onActivated: {
                picker.active = true;
                picker.item.open();
            }
        }
        // a phone has no file picker: the transcripts folder's newest files, to watch
        Flow {
            objectName: "savedTranscripts"
            visible: bridge.mobile && savedRepeater.count > 0
            Layout.fillWidth: true
            spacing: statsOverlay.gap * 0.5
            Repeater {
                id: savedRepeater
                model: statsOverlay.opened && bridge.mobile ? bridge.extras.savedTranscripts() : []
                GameButton {
                    required property var modelData
                    // one row each, the whole width: its date and result read whole
                    width: parent ? parent.width : implicitWidth
                    fs: Math.max(11, statsOverlay.fs * 0.75)
                    // named by its date and result (the file's path is no player's business)
                    text: bridge.extras.watchLabel + ": " + modelData.label
                    hint: bridge.extras.watchLabel + ": " + modelData.label
                    onActivated: bridge.extras.watchFile(modelData.path)
                }
            }
        }
        // Qt's own file dialog (QtQuick.Dialogs), loaded on desktop when first asked for: a
        // phone never loads the module
        Loader {
            id: picker
            active: false
            source: "Replay/ReplayPicker.qml"
            onLoaded: item.extras = bridge.extras
        }
        Text {
            objectName: "statsSummary"
            visible: text.length > 0
            Layout.fillWidth: true
            text: bridge.extras.statsSummary
            color: "#fdf6e3"
            font.pixelSize: Math.max(11, statsOverlay.fs * 0.9)
            wrapMode: Text.WordWrap
            Accessible.role: Accessible.StaticText
            Accessible.name: text
        }
        Text {
            objectName: "statsProblem"
            visible: bridge.extras.statsProblem.length > 0
            Layout.fillWidth: true
            text: bridge.extras.statsProblem
            color: "#ffd98a"
            font.pixelSize: Math.max(11, statsOverlay.fs * 0.85)
            wrapMode: Text.WordWrap
            Accessible.role: Accessible.StaticText
            Accessible.name: text
        }
        Text {
            objectName: "statsEmpty"
            visible: statsOverlay.rows.length === 0
            Layout.fillWidth: true
            Layout.fillHeight: true
            verticalAlignment: Text.AlignTop
            text: "No finished sessions yet. Each session is kept here when it ends: complete after five hands, or ended without a result."
            color: "#fdf6e3"
            font.pixelSize: statsOverlay.fs
            wrapMode: Text.WordWrap
            Accessible.role: Accessible.StaticText
            Accessible.name: text
        }
        GridLayout {
            visible: statsOverlay.rows.length > 0
            Layout.fillWidth: true
            Layout.fillHeight: true
            columns: statsOverlay.portrait ? 1 : 2
            rowSpacing: statsOverlay.gap
            columnSpacing: statsOverlay.gap
            Flickable {
                id: listFlick
                objectName: "statsList"
                Layout.fillWidth: statsOverlay.portrait
                Layout.fillHeight: !statsOverlay.portrait
                Layout.preferredWidth: statsOverlay.portrait ? -1 : Math.max(200, statsOverlay.width * 0.36)
                Layout.preferredHeight: statsOverlay.portrait ? Math.min(listColumn.implicitHeight, statsOverlay.height * 0.3) : -1
                clip: true
                contentHeight: listColumn.implicitHeight
                boundsBehavior: Flickable.StopAtBounds
                ScrollBar.vertical: ScrollBar { }
                Accessible.role: Accessible.List
                Accessible.name: "Finished sessions"
                Column {
                    id: listColumn
                    width: listFlick.width - 10
                    spacing: statsOverlay.gap * 0.5
                    Repeater {
                        id: sessionList
                        model: statsOverlay.rows
                        GameButton {
                            required property var modelData
                            required property int index
                            objectName: "btnSession" + index
                            width: listColumn.width
                            fs: Math.max(11, statsOverlay.fs * 0.85)
                            primary: index === statsOverlay.chosen
                            text: modelData.label
                            hint: modelData.summary
                            Accessible.name: modelData.summary
                            onActivated: statsOverlay.chosen = index
                            onActiveFocusChanged: if (activeFocus) {
                                statsOverlay.chosen = index;
                                var y = listFlick.mapFromItem(this, 0, 0).y;
                                if (y < 0) listFlick.contentY += y;
                                else if (y + height > listFlick.height) listFlick.contentY += y + height - listFlick.height;
                            }
                        }
                    }
                }
            }
            ColumnLayout {
                objectName: "statsDetail"
                Layout.fillWidth: true
                Layout.fillHeight: true
                spacing: statsOverlay.gap * 0.4
                Text {
                    objectName: "statsOutcome"
                    Layout.fillWidth: true
                    text: !statsOverlay.row ? ""
                          : statsOverlay.row.outcome === "Complete"
                            ? "Complete — final points " + statsOverlay.row.final + " (" + statsOverlay.row.change + ")"
                            : "Ended without a result — " + statsOverlay.row.reason
                    font.pixelSize: statsOverlay.fs * 1.05
                    font.bold: true
                    color: "#fff0c2"
                    wrapMode: Text.WordWrap
                    Accessible.role: Accessible.StaticText
                    Accessible.name: text
                }
                Text {
                    objectName: "statsFigures"
                    Layout.fillWidth: true
                    text: !statsOverlay.row ? "" : statsOverlay.row.figures
                    font.pixelSize: Math.max(11, statsOverlay.fs * 0.85)
                    color: "#fdf6e3"
                    wrapMode: Text.WordWrap
                    Accessible.role: Accessible.StaticText
                    Accessible.name: text
                }
                GameButton {
                    id: watchButton
                    objectName: "btnWatch"
                    visible: statsOverlay.row !== null
                    Layout.preferredWidth: Math.max(120, statsOverlay.fs * 10)
                    fs: Math.max(11, statsOverlay.fs * 0.85)
                    text: bridge.extras.watchLabel
                    hint: statsOverlay.row ? statsOverlay.row.summary : ""
                    onActivated: bridge.extras.watch(Math.min(statsOverlay.chosen, statsOverlay.rows.length - 1))
                }
                BalanceChart {
                    objectName: "statsChart"
                    Layout.fillWidth: true
                    Layout.fillHeight: true
                    Layout.minimumHeight: 40
                    samples: statsOverlay.row ? statsOverlay.row.chart : []
                    start: bridge.startingPoints
                    fs: statsOverlay.fs
                }
            }
        }
    }
}
