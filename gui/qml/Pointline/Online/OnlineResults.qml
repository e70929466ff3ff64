import QtQuick
import QtQuick.Layouts
import QtQuick.Controls.Basic
import Pointline
import Pointline.Online

// Results: final points with shared competition ranks, receipts, the casual-results notice,
// or no result with the reason and the seat; where the transcript is and what verify says.
Item {
    id: screen
    required property OnlineBridge online
    property real fs: 14
    property real gap: 8
    // the smallest text a screen may draw (a phone's 11 pt, OnlineMain.minText): a small
    // text is its share of the base size, never under it
    property real minText: 0
    required property var px  // OnlineMain.px: a share of the type size, never under minText
    readonly property bool portrait: height > width
    readonly property bool complete: online.results.outcome === "complete"
    readonly property bool anyThrow: online.seatTable.throws > 0
    function focusFirst() { lobbyButton.forceActiveFocus(); }
    // the transcript file's path: on a phone under "Advanced" (the verdict is said without it)
    readonly property bool pathShown: !online.mobile || transcriptAdvanced.open

    GridLayout {
        anchors.fill: parent
        columns: screen.portrait ? 1 : 2
        rowSpacing: screen.gap
        columnSpacing: screen.gap * 2

        ColumnLayout {
            Layout.fillWidth: true
            Layout.fillHeight: true
            // the standings and their charts take most of the page; the receipts column the rest
            Layout.preferredWidth: screen.portrait ? -1 : Math.max(screen.fs * 18, screen.width * 0.58)
            spacing: screen.gap * 0.6
            Heading {
                objectName: "resultTitle"
                Layout.fillWidth: true
                text: screen.complete ? "Session complete" : "No result"
                font.pixelSize: screen.fs * 1.5
            }
            Text {
                objectName: "endText"
                Layout.fillWidth: true
                visible: !screen.complete
                text: online.results.endText
                wrapMode: Text.WordWrap
                color: "#ffd98a"
                font.pixelSize: screen.fs
                Accessible.role: Accessible.AlertMessage
                Accessible.name: text
            }
            Text {
                objectName: "noThrowText"
                Layout.fillWidth: true
                visible: !screen.complete && !screen.anyThrow
                text: "No throw was made, so there is no balance chart: everyone keeps " + Number(online.startingPoints).toLocaleString(Qt.locale("en_US"), "f", 0) + " points."
                wrapMode: Text.WordWrap
                color: "#cfe3d6"
                font.pixelSize: screen.px(0.9)
                Accessible.role: Accessible.StaticText
                Accessible.name: text
            }
            // Each seat: its rank (none without a result), final points and balance over the throws.
            ListView {
                id: rankList
                objectName: "rankList"
                visible: screen.complete || screen.anyThrow
                Layout.fillWidth: true
                Layout.fillHeight: true
                Layout.minimumHeight: screen.fs * 4
                clip: true
                spacing: 4
                model: online.results.standings
                boundsBehavior: Flickable.StopAtBounds
                ScrollIndicator.vertical: ScrollIndicator { }
                Accessible.role: Accessible.List
                Accessible.name: screen.complete ? "Final points, ranks and balance charts" : "Points and balance charts"
                delegate: Rectangle {
                    id: standing
                    required property var model
                    readonly property bool hasChart: model.chart.length > 1
                    objectName: "standing" + model.seat
                    width: rankList.width - 4
                    height: rowCol.implicitHeight + screen.gap
                    radius: 6
                    color: model.you ? "#1f5a3f" : "#133d2b"
                    Accessible.role: Accessible.ListItem
                    Accessible.name: (model.rank > 0 ? "Rank " + model.rank + ": " : "") + model.name + ", " + model.label + ", " + model.final + " points" + (model.you ? ", you" : "")
                    ColumnLayout {
                        id: rowCol
                        anchors.fill: parent
                        anchors.margins: screen.gap * 0.5
                        spacing: 2
                        RowLayout {
                            Layout.fillWidth: true
                            Text {
                                visible: standing.model.rank > 0
                                text: "#" + standing.model.rank
                                color: "#f2c14e"; font.bold: true; font.pixelSize: screen.fs * 1.1
                            }
                            Text {
                                Layout.fillWidth: true
                                text: standing.model.name + " · " + standing.model.label + (standing.model.you ? " (you)" : "")
                                color: "#fdf6e3"; font.pixelSize: screen.fs; elide: Text.ElideRight
                            }
                            Text {
                                text: Number(standing.model.final).toLocaleString(Qt.locale("en_US"), "f", 0)
                                color: "#fdf6e3"; font.bold: true; font.pixelSize: screen.fs
                            }
                        }
                        BalanceChart {
                            objectName: "chartSeat" + standing.model.seat
                            visible: standing.hasChart
                            Layout.fillWidth: true
                            Layout.preferredHeight: Math.max(56, Math.min(screen.fs * 6, rankList.height / Math.max(1, rankList.count) - screen.fs * 2.6))
                            fs: screen.fs
                            samples: standing.model.chart
                            start: online.startingPoints
                            showLast: false  // the final points are written above the chart
                        }
                    }
                }
            }
        }

        ColumnLayout {
            objectName: "resultsSide"
            Layout.fillWidth: true
            Layout.preferredWidth: screen.portrait ? -1 : screen.width * 0.4
            Layout.fillHeight: !screen.portrait
            Layout.alignment: Qt.AlignTop
            spacing: screen.gap * 0.6
            // what the session left (receipts, the notice, the transcript): its words scroll on a
            // short phone, the buttons below stay in sight
            Flickable {
                objectName: "resultsWords"
                Layout.fillWidth: true
                Layout.fillHeight: true
                Layout.preferredHeight: sideWords.implicitHeight
                Layout.maximumHeight: sideWords.implicitHeight
                contentHeight: sideWords.implicitHeight
                clip: true
                boundsBehavior: Flickable.StopAtBounds
                ScrollIndicator.vertical: ScrollIndicator { }
                ColumnLayout {
                    id: sideWords
                    width: parent.width
                    spacing: screen.gap * 0.6
                    Text {
                        objectName: "receiptsText"
                        Layout.fillWidth: true
                        visible: screen.complete
                        text: online.results.receiptsText.length > 0 ? online.results.receiptsText : "Exchanging signed receipts…"
                        wrapMode: Text.WordWrap
                        color: "#8fe3a7"
                        font.pixelSize: screen.px(0.95)
                        Accessible.role: Accessible.StaticText
                        Accessible.name: text
                    }
                    Text {
                        objectName: "resultsHostedNote"
                        visible: text.length > 0
                        Layout.fillWidth: true
                        text: online.hostedNote
                        wrapMode: Text.WordWrap
                        font.pixelSize: screen.px(0.75)
                        color: "#d5e6dc"
                        Accessible.role: Accessible.StaticText
                        Accessible.name: text
                    }
                    Rectangle {
                        objectName: "casualNotice"
                        Layout.fillWidth: true
                        implicitHeight: casual.implicitHeight + screen.gap
                        radius: 6
                        color: "#3a2a10"
                        border.color: "#f2c14e"
                        Text {
                            id: casual
                            anchors.fill: parent
                            anchors.margins: screen.gap * 0.5
                            text: online.casualNotice
                            wrapMode: Text.WordWrap
                            color: "#fdf6e3"
                            font.pixelSize: screen.px(0.85)
                            Accessible.role: Accessible.StaticText
                            Accessible.name: text
                        }
                    }
                    Text {
                        objectName: "transcriptText"
                        Layout.fillWidth: true
                        text: online.results.transcriptPath.length > 0
                              ? (screen.pathShown ? "Transcript saved: " + online.results.transcriptPath
                                                  : online.seatTable.texts.transcriptSaved)
                                + "\n" + online.results.verifyText
                              : "Saving the transcript…"
                        wrapMode: Text.WrapAtWordBoundaryOrAnywhere
                        color: online.results.transcriptPath.length > 0 && !online.results.verifying && !online.results.verifyOk ? "#ff9a8a" : "#cfe3d6"
                        font.pixelSize: screen.px(0.8)
                        Accessible.role: Accessible.StaticText
                        Accessible.name: text
                    }
                }
            }
            OnlineAdvanced {
                id: transcriptAdvanced
                objectName: "btnAdvancedTranscript"
                visible: online.mobile && online.results.transcriptPath.length > 0
                fs: screen.fs
                texts: online.seatTable.texts
                label: "advancedTranscript"
                hintKey: "advancedTranscriptHint"
            }
            GameButton {
                objectName: "btnWatchAgain"
                Layout.fillWidth: true
                fs: screen.fs
                visible: online.results.transcriptPath.length > 0
                text: online.results.watchLabel
                hint: online.results.verifyText
                onActivated: online.results.watchAgain()
            }
            GameButton {
                id: lobbyButton
                objectName: "btnBackToLobby"
                property string designRole: "main"  // under the thumb (layout check)
                Layout.fillWidth: true
                fs: screen.fs
                primary: true
                text: online.hostedNote.length > 0 ? "Back to Play online" : "Back to the lobby"
                hint: online.hostedNote.length > 0 ? "The table closes; host or join a table again"
                                                   : "A new room; nothing carries over between sessions"
                onActivated: online.backToLobby()
            }
            GameButton {
                objectName: "btnResultsBackToSolo"
                visible: online.canLeave
                Layout.fillWidth: true
                fs: screen.fs
                text: "Back to solo table"
                hint: "Return to the solo table; you stay signed in, so coming back is one tap"
                enabled: !online.busy
                onActivated: online.leave()
            }
            Item { Layout.fillHeight: !screen.portrait; Layout.preferredHeight: 0 }
        }
    }
}
