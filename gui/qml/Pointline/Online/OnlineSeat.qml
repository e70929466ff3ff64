import QtQuick
import QtQuick.Layouts

// One seat at the online table, read-only: name, balance, contracts and whether it is awaited.
Rectangle {
    id: seat
    property var row: ({})
    property real fs: 13
    property real minText: 0  // a phone's smallest text (OnlineMain.minText)
    radius: 8
    color: row.you ? "#1f5a3f" : "#133d2b"
    border.width: row.awaited ? 2 : 1
    border.color: row.awaited ? "#f2c14e" : "#2f5a45"
    implicitHeight: col.implicitHeight + fs
    Accessible.role: Accessible.ListItem
    Accessible.name: row.label + ", " + row.name + (row.you ? " (you)" : "")
    Accessible.description: "Balance " + row.balance + ", Pass " + row.pass + ", Don't Pass " + row.dontPass
                            + (row.status ? ", " + row.status : "")
    ColumnLayout {
        id: col
        anchors.fill: parent
        anchors.margins: seat.fs * 0.5
        spacing: 1
        RowLayout {
            Layout.fillWidth: true
            Text {
                Layout.fillWidth: true
                text: row.name + (row.you ? " (you)" : "")
                color: "#fdf6e3"
                font.pixelSize: Math.max(seat.minText, seat.fs * 0.95)
                font.bold: true
                elide: Text.ElideRight
            }
            Text {
                text: row.status === "choosing" ? "choosing…" : row.status === "committed" ? "committed ✓" : ""
                color: row.status === "choosing" ? "#ffd98a" : "#8fe3a7"
                font.pixelSize: Math.max(seat.minText, seat.fs * 0.8)
            }
        }
        Text {
            Layout.fillWidth: true
            text: row.label + " · Balance " + Number(row.balance).toLocaleString(Qt.locale("en_US"), "f", 0)
            color: "#cfe3d6"
            font.pixelSize: Math.max(seat.minText, seat.fs * 0.8)
            elide: Text.ElideRight
        }
        Text {
            Layout.fillWidth: true
            text: "Pass " + row.pass + " · Don't Pass " + row.dontPass
            color: "#cfe3d6"
            font.pixelSize: Math.max(seat.minText, seat.fs * 0.8)
            elide: Text.ElideRight
        }
    }
}
