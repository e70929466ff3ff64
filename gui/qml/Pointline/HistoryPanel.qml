import QtQuick
import QtQuick.Layouts
import QtQuick.Controls.Basic

// The seat's history: contracts, every change, throw, settlement and refund, by hand. The hand
// being read stays named at the top (the list's own pinned section label, so no row is hidden
// under a second copy of it).
Rectangle {
    id: panel
    property var table: null
    property real fs: 13
    property real gap: 6
    property string title: "History"
    property string headingName: "historyHeading"
    readonly property alias count: historyList.count
    radius: fs * 0.5
    color: "#10251b"
    border.color: "#2f5a45"
    Accessible.role: Accessible.List
    Accessible.name: (panel.table.texts.historyList || "{count}").replace("{count}", historyList.count)
    ColumnLayout {
        anchors.fill: parent
        anchors.margins: panel.gap * 0.7
        spacing: 2
        Text {
            objectName: panel.headingName
            Layout.fillWidth: true
            text: panel.title
            font.pixelSize: panel.fs * 0.95
            font.bold: true
            color: "#f2c14e"
        }
        Text {
            Layout.fillWidth: true
            text: "Current: Pass " + panel.table.contractPass + " · Don't Pass " + panel.table.contractDontPass
            font.pixelSize: panel.fs * 0.8
            color: "#fdf6e3"
            elide: Text.ElideRight
        }
        Text {
            objectName: "historyEmpty"
            visible: historyList.count === 0
            Layout.fillWidth: true
            Layout.fillHeight: true  // takes the list's place, so the heading stays on top
            verticalAlignment: Text.AlignTop
            text: panel.table.texts.historyEmpty || ""
            wrapMode: Text.WordWrap
            font.pixelSize: panel.fs * 0.82
            color: "#9fb8aa"
        }
        ListView {
            id: historyList
            visible: count > 0
            objectName: "historyList"
            Layout.fillWidth: true
            Layout.fillHeight: true
            clip: true
            model: panel.table.history
            spacing: 1
            boundsBehavior: Flickable.StopAtBounds
            ScrollBar.vertical: ScrollBar { }
            onCountChanged: Qt.callLater(restAtEnd)
            onHeightChanged: Qt.callLater(restAtEnd)
            onMovementEnded: rest(false)
            // The pinned heading covers the top of the list: the list rests only where the
            // heading's bottom falls between two rows, so no row shows a sliver under it.
            readonly property real headingHeight: Math.ceil(headingMetrics.height) + 4
            FontMetrics {
                id: headingMetrics
                font.pixelSize: panel.fs * 0.9
                font.bold: true
            }
            function restAtEnd() {
                bottomMargin = 0;
                positionViewAtEnd();
                rest(true);
            }
            // Each delegate's top is a resting place: the heading then ends where it begins
            // (a hand's own heading row has no height: its section label is pinned whole).
            function rest(atEnd) {
                var end = originY + contentHeight - height;
                if (end <= originY) {
                    bottomMargin = 0;
                    return;
                }
                var want = atEnd ? end : contentY;
                var best = null;
                var rows = contentItem.children;
                for (var i = 0; i < rows.length; ++i) {
                    var row = rows[i];
                    if (row.kind === undefined || !row.visible && row.kind !== "hand")
                        continue;
                    var place = row.y - headingHeight;
                    if (place < originY - 0.5 || !atEnd && place > end + 0.5 || atEnd && place < end - 0.5)
                        continue;
                    if (best === null || Math.abs(place - want) < Math.abs(best - want))
                        best = place;
                }
                if (best === null)
                    return;
                bottomMargin = Math.max(0, best - end);
                contentY = Math.max(originY, best);
            }
            section.property: "hand"
            section.labelPositioning: ViewSection.InlineLabels | ViewSection.CurrentLabelAtStart
            section.delegate: Rectangle {
                required property string section
                objectName: "handHeading"
                width: historyList.width - 8
                height: historyList.headingHeight
                color: "#10251b"
                z: 3
                Text {
                    id: headingText
                    anchors.bottom: parent.bottom
                    anchors.bottomMargin: 2
                    text: "Hand " + parent.section
                    font.pixelSize: panel.fs * 0.9
                    font.bold: true
                    color: "#f2c14e"
                    Accessible.role: Accessible.Heading
                    Accessible.name: text
                }
            }
            // Heading rows are drawn by the section label above; their own row takes no room.
            delegate: Text {
                required property string kind
                required property string hand
                required property var model
                width: historyList.width - 8
                visible: kind !== "hand"
                height: kind !== "hand" ? implicitHeight : 0
                text: model.text
                wrapMode: Text.WordWrap
                font.pixelSize: panel.fs * 0.82
                font.bold: kind === "contract"
                color: kind === "win" ? "#8fe3a7"
                     : kind === "loss" ? "#ff9a8a"
                     : kind === "refund" || kind === "change" ? "#ffd98a"
                     : kind === "throw" ? "#cfe3d6" : "#fdf6e3"
                Accessible.role: Accessible.ListItem
                Accessible.name: text
            }
        }
    }
}
