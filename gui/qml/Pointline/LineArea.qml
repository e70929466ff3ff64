import QtQuick

// A betting area on the felt (Pass Line or Don't Pass Bar): tap to select it.
Rectangle {
    id: area
    property string title: ""
    property string line: "pass"
    property bool selected: false
    property int draftAmount: 0
    property int contractAmount: 0
    property string phase: "come_out"
    property string reason: ""
    property real fs: 13
    property color tone: "#c0392b"
    signal tapped()

    radius: 10
    color: selected ? "#1f7a50" : "#135c3b"
    border.width: selected ? 4 : 2
    border.color: selected ? "#f2c14e" : "#e8e2cf"
    Accessible.role: Accessible.RadioButton
    Accessible.checkable: true
    Accessible.checked: selected
    Accessible.name: title.charAt(0) + title.slice(1).toLowerCase()
    Accessible.description: "Contract " + contractAmount + ", " + (phase === "point" && line === "dont_pass" ? "prepared " : "draft ") + draftAmount + (reason ? ". " + reason : "")
    Accessible.onPressAction: tapped()

    property string motto: ""
    MouseArea { anchors.fill: parent; onClicked: area.tapped() }
    Text {
        anchors { horizontalCenter: parent.horizontalCenter; bottom: parent.bottom; bottomMargin: area.fs * 0.5 }
        visible: area.height > area.fs * 9 && implicitWidth < area.width - area.fs * 2
        text: area.motto
        font.family: "DejaVu Serif"
        font.pixelSize: area.fs * 0.9
        font.letterSpacing: 2
        color: "#fdf6e3"
        opacity: 0.45
        Accessible.ignored: true
    }

    readonly property bool compact: height < fs * 5.2
    readonly property real textWidth: width - chips.width - fs * 2
    Text {
        id: label
        anchors { left: parent.left; top: parent.top; leftMargin: area.fs * 0.8; topMargin: area.fs * (area.compact ? 0.2 : 0.4) }
        width: area.compact ? Math.min(implicitWidth, area.textWidth * 0.66) : area.textWidth
        text: area.title
        font.family: "DejaVu Serif"
        font.pixelSize: area.fs * (area.compact ? 1.1 : 1.35)
        font.bold: true
        font.letterSpacing: area.compact ? 0.5 : 1.5
        color: "#fdf6e3"
        elide: Text.ElideRight
    }
    Text {
        id: amounts
        anchors.left: area.compact ? label.right : label.left
        anchors.leftMargin: area.compact ? area.fs * 0.6 : 0
        y: area.compact ? label.y + label.baselineOffset - baselineOffset : label.y + label.height + 2
        width: area.compact ? area.textWidth - label.width - area.fs * 0.6 : label.width
        font.pixelSize: area.fs * 0.9
        color: "#e8f3ec"
        elide: Text.ElideRight
        text: area.phase === "point"
              ? (area.line === "dont_pass" && area.draftAmount !== area.contractAmount
                 ? (area.compact ? area.contractAmount + " → " + area.draftAmount
                                 : "Contract " + area.contractAmount + " → prepared " + area.draftAmount)
                 : "Contract " + area.contractAmount)
              : (area.contractAmount > 0 ? "Contract " + area.contractAmount + " · " : "") + "Draft " + area.draftAmount
    }
    Text {
        anchors { left: label.left; top: area.compact ? label.bottom : amounts.bottom; topMargin: area.compact ? 0 : 2; bottom: parent.bottom; bottomMargin: 2 }
        width: area.textWidth
        visible: area.reason.length > 0
        text: area.reason
        font.pixelSize: area.fs * 0.82
        font.italic: true
        color: "#ffd98a"
        wrapMode: Text.WordWrap
        elide: Text.ElideRight
        maximumLineCount: 2
    }
    Row {
        id: chips
        anchors { right: parent.right; verticalCenter: parent.verticalCenter; rightMargin: area.fs * 0.8 }
        spacing: area.fs * 0.4
        readonly property real chipSize: Math.min(area.height * 0.62, area.fs * 3.4)
        Chip {
            size: chips.chipSize
            amount: area.contractAmount
            tone: area.tone
        }
        Chip {
            size: chips.chipSize
            draft: true
            amount: area.draftAmount !== area.contractAmount ? area.draftAmount : 0
        }
    }
}
