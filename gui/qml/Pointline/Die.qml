import QtQuick

// One die with pips; shows a blank face before the first throw.
Rectangle {
    id: die
    property int value: 0
    // What a reader is told: the landed face, not each face a tumbling die flashes (those
    // name changes flooded Orca 43, which then dropped the throw's announcement: issue 40).
    property int landed: value
    property real size: 48
    width: size; height: size
    radius: size * 0.18
    color: "#fbfaf5"
    border.color: "#c9c3b0"; border.width: 1
    Accessible.role: Accessible.Graphic
    Accessible.name: landed > 0 ? "Die showing " + landed : "Die not thrown yet"
    readonly property var pips: [
        [], [4], [0, 8], [0, 4, 8], [0, 2, 6, 8], [0, 2, 4, 6, 8], [0, 2, 3, 5, 6, 8]
    ]
    Grid {
        anchors.centerIn: parent
        columns: 3; rows: 3
        spacing: die.size * 0.08
        Repeater {
            model: 9
            Rectangle {
                width: die.size * 0.18; height: width; radius: width / 2
                color: die.value > 0 && die.pips[die.value].indexOf(index) >= 0 ? "#8b1a1a" : "transparent"
            }
        }
    }
}
