import QtQuick

// A chip with its amount; a dashed-looking rim and a draft (hollow) style.
Item {
    id: chip
    property int amount: 0
    property bool draft: false
    property color tone: "#c0392b"
    property real size: 40
    width: size; height: size
    visible: amount > 0
    Rectangle {
        anchors.fill: parent
        radius: width / 2
        color: chip.draft ? "transparent" : chip.tone
        border.width: chip.size * 0.1
        border.color: chip.draft ? "#fdf6e3" : "#fdf6e3"
        opacity: chip.draft ? 0.95 : 1
        Rectangle {
            anchors.centerIn: parent
            width: parent.width * 0.62; height: width; radius: width / 2
            color: chip.draft ? "#0f5236" : Qt.darker(chip.tone, 1.25)
            border.color: "#fdf6e3"; border.width: 1
        }
        Text {
            anchors.centerIn: parent
            text: chip.amount
            color: "#ffffff"
            font.pixelSize: Math.max(11, chip.size * 0.3)
            font.bold: true
        }
    }
}
