import QtQuick

// The point puck: black OFF, white ON with the point number.
Rectangle {
    id: puck
    property int point: 0
    property real size: 52
    width: size; height: size; radius: size / 2
    implicitWidth: size; implicitHeight: size
    color: point > 0 ? "#fdfdfd" : "#161616"
    border.width: 2
    border.color: point > 0 ? "#161616" : "#fdfdfd"
    Accessible.role: Accessible.Indicator
    Accessible.name: point > 0 ? "Point is on: " + point : "Point is off"
    Column {
        anchors.centerIn: parent
        Text {
            anchors.horizontalCenter: parent.horizontalCenter
            text: puck.point > 0 ? "ON" : "OFF"
            font.pixelSize: puck.size * (puck.point > 0 ? 0.22 : 0.24)
            font.bold: true
            color: puck.point > 0 ? "#161616" : "#fdfdfd"
        }
        Text {
            anchors.horizontalCenter: parent.horizontalCenter
            visible: puck.point > 0
            text: puck.point
            font.pixelSize: puck.size * 0.38
            font.bold: true
            color: "#8b1a1a"
        }
    }
}
