import QtQuick

// A betting area on the felt (Pass Line or Don't Pass Bar), drawn from its SeatTable: a tap
// selects it (and at the come-out places the selected chip there).
Rectangle {
    id: area
    property var table: null
    property string title: ""
    property string line: "pass"
    property bool selected: table ? table.selectedLine === line : false
    property int draftAmount: !table ? 0 : line === "pass" ? table.draftPass : table.draftDontPass
    property int contractAmount: !table ? 0 : line === "pass" ? table.contractPass : table.contractDontPass
    property bool pointPhase: table ? table.pointPhase : false
    // What a prepared Don't Pass reduction gives back when the dice are rolled (0: none).
    property int refund: table ? table.lineRefunds[line] || 0 : 0
    property string reason: table ? table.lineReasons[line] || "" : ""
    property real fs: 13
    property color tone: "#c0392b"
    property string outcome: table ? table.lineOutcomes[line] || "" : ""
    property bool focusRing: false
    // The reason the line takes no chip, written on the felt (off: it is said on demand).
    property bool reasonShown: true
    // Where this line's chips sit (chip flights start and end here).
    readonly property Item chipAnchor: chips
    signal tapped()

    radius: 10
    color: selected ? "#1f7a50" : "#135c3b"
    border.width: selected ? 4 : 2
    border.color: selected ? "#f2c14e" : "#e8e2cf"
    Accessible.role: Accessible.RadioButton
    Accessible.checkable: true
    Accessible.checked: selected
    Accessible.name: title.charAt(0) + title.slice(1).toLowerCase()
    readonly property bool reducing: refund > 0
    Accessible.description: rule + ". Contract " + contractAmount + ", " + (reducing ? "prepared " + draftAmount + ", refund " + refund + " when you roll" : "draft " + draftAmount) + (outcome ? ". Last throw: " + outcome : "") + (reason ? ". " + reason : "")
    Accessible.onPressAction: tapped()

    // The line's rule now, with what it pays ("Wins on 7, 11 · loses on 2, 3, 12 · pays 1:1";
    // on a point of 6 "Wins on 6 before 7 · pays 1:1"): the words module's (gui/texts.py).
    readonly property string rule: !table || !table.texts ? ""
        : (table.texts["rule" + (line === "pass" ? "Pass" : "DontPass") + (pointPhase ? "Point" : "ComeOut")] || "")
          .replace("{point}", table.point)
    MouseArea { anchors.fill: parent; onClicked: area.tapped() }
    Rectangle {
        // The keyboard focus ring on the selected line: 3 px white with a dark rim.
        anchors.fill: parent
        anchors.margins: -5
        radius: area.radius + 5
        visible: area.focusRing
        color: "transparent"
        border.width: 3
        border.color: "#ffffff"
        Rectangle {
            anchors.fill: parent; anchors.margins: -2; radius: parent.radius + 2
            color: "transparent"; border.width: 2; border.color: "#06130d"
        }
    }
    readonly property bool compact: height < fs * 5.2
    readonly property real textWidth: width - chips.width - (outcome.length > 0 ? outcomeBadge.width + fs * 0.6 : 0) - fs * 2
    // The title is never cut: compact, the amounts sit beside it while the title still fits
    // there at its smallest size, else they go under it (a refund badge and a larger system
    // text size leave a narrow box); with no amounts beside it the title takes the whole width.
    TextMetrics { id: titleFull; font: label.font; text: area.title }
    TextMetrics {
        id: titleLeast
        font.family: label.font.family; font.bold: true; font.letterSpacing: 0.5
        font.pixelSize: label.minimumPixelSize
        text: area.title
    }
    TextMetrics { id: amountsOneLine; font.pixelSize: amounts.font.pixelSize; text: area.amountsWords }
    readonly property real titleRoomBeside: textWidth - amountsOneLine.advanceWidth - fs * 0.6
    readonly property bool amountsBeside: compact && amountsWords.length > 0 && titleRoomBeside >= titleLeast.advanceWidth + 2
    readonly property string amountsWords:
        // compact with the throw's outcome beside it: the badge and the chip say it all
        compact && outcome.length > 0 && textWidth - Math.min(titleFull.advanceWidth, textWidth * 0.66) < fs * 6 ? ""
        : pointPhase
        ? (reducing
           // compact: the badge beside the chips says the refund ("10 back")
           ? (compact ? contractAmount + " → " + draftAmount
                      : "Contract " + contractAmount + " → " + draftAmount + " · refund " + refund + (textWidth > fs * 22 ? " when you roll" : ""))
           : "Contract " + contractAmount)
        // a sealed contract is said once (a throw in flight: "Contract 30", no "Draft 30")
        : contractAmount > 0 && draftAmount === contractAmount ? "Contract " + contractAmount
        : (contractAmount > 0 ? "Contract " + contractAmount + " · " : "") + "Draft " + draftAmount
    Text {
        id: label
        anchors { left: parent.left; top: parent.top; leftMargin: area.fs * 0.8; topMargin: area.fs * (area.compact ? 0.2 : 0.4) }
        width: area.amountsBeside ? Math.min(implicitWidth, area.titleRoomBeside)
             : area.compact ? Math.min(implicitWidth, area.textWidth) : area.textWidth
        text: area.title
        font.family: "DejaVu Serif"
        font.pixelSize: area.fs * (area.compact ? 1.1 : 1.35)
        font.bold: true
        font.letterSpacing: area.compact || area.textWidth < area.fs * 12 ? 0.5 : 1.5  // narrow: tighter first
        color: "#fdf6e3"
        // a narrow box (a refund badge beside it) shrinks the title before it would cut it
        fontSizeMode: Text.HorizontalFit
        minimumPixelSize: Math.max(11, area.fs * 0.55)  // 11 px at the least (a phone), at 130% text too
        elide: Text.ElideRight
    }
    Text {
        id: amounts
        objectName: "amounts_" + area.line
        anchors.left: area.amountsBeside ? label.right : label.left
        anchors.leftMargin: area.amountsBeside ? area.fs * 0.6 : 0
        y: area.amountsBeside ? label.y + label.baselineOffset - baselineOffset : label.y + label.height + 2
        width: area.amountsBeside ? area.textWidth - label.width - area.fs * 0.6 : area.textWidth
        font.pixelSize: area.fs * 0.9
        color: "#e8f3ec"
        // one line in both boxes (what follows it, the rule, starts at the same height)
        wrapMode: Text.NoWrap
        fontSizeMode: Text.HorizontalFit
        minimumPixelSize: Math.max(11, area.fs * 0.6)
        elide: Text.ElideRight
        visible: text.length > 0
        text: area.amountsWords
    }
    Text {
        id: ruleText
        objectName: "rule_" + area.line
        anchors { left: label.left; top: area.amountsBeside || !amounts.visible ? label.bottom : amounts.bottom; topMargin: area.compact ? 0 : 4 }
        width: area.textWidth
        // shown where two lines of it fit (so both boxes decide alike): at least 12 pt, on
        // the line's own colour (over 4.5:1)
        // (a narrow box at a larger system text size: a third line where the box has room)
        readonly property int room: Math.floor((area.height - 2 - y) / ruleMetrics.lineSpacing)
        height: Math.ceil(ruleMetrics.lineSpacing * maximumLineCount)
        visible: !(area.reasonShown && area.reason.length > 0) && y + height <= area.height - 2
        FontMetrics { id: ruleMetrics; font: ruleText.font }
        text: area.rule
        font.pixelSize: Math.max(12, area.fs * 0.85)
        color: "#fdf6e3"
        wrapMode: Text.WordWrap
        maximumLineCount: Math.max(2, Math.min(3, room))
        // still too long for its lines (a throw's outcome badge beside it, at a larger system
        // text size): a little smaller, never under 12 px, rather than cut
        fontSizeMode: Text.Fit
        minimumPixelSize: 12
        Accessible.ignored: true  // the line's description says its rule
    }
    Text {
        anchors { left: label.left; top: area.amountsBeside || !amounts.visible ? label.bottom : amounts.bottom; topMargin: area.compact ? 0 : 2; bottom: parent.bottom; bottomMargin: 2 }
        width: area.textWidth
        visible: area.reasonShown && area.reason.length > 0
        text: area.reason
        font.pixelSize: area.fs * 0.82
        font.italic: true
        color: "#fff0c2"
        wrapMode: Text.WordWrap
        fontSizeMode: Text.Fit
        minimumPixelSize: Math.max(11, area.fs * 0.6)
        elide: Text.ElideRight
        maximumLineCount: 2
    }
    Row {
        id: chips
        anchors { right: parent.right; verticalCenter: parent.verticalCenter; rightMargin: area.fs * 0.8 }
        spacing: area.fs * 0.4
        readonly property real chipSize: Math.min(area.height - 6, Math.max(36, Math.min(area.height * 0.62, area.fs * 4.2)))
        // One stack per line. A Don't Pass reduction is the same stack with its prepared value:
        // the chip shows what stays, a badge what comes back ("−10 back").
        // A Don't Pass reduction: what comes back, beside the stack of what stays.
        Rectangle {
            objectName: "refund_" + area.line
            visible: area.reducing
            anchors.verticalCenter: parent.verticalCenter
            width: refundText.implicitWidth + area.fs * 0.6
            height: refundText.implicitHeight + 4
            radius: height / 2
            color: "#fdf6e3"
            Text {
                id: refundText
                anchors.centerIn: parent
                text: area.refund + " back"
                font.pixelSize: area.fs * 0.7
                font.bold: true
                color: "#1b1300"
            }
        }
        // One stack per line: the contract, or what stays of it after a prepared reduction.
        Chip {
            id: stack
            objectName: "chip_" + area.line
            size: chips.chipSize
            amount: area.reducing ? area.draftAmount : area.contractAmount
            tone: area.tone
        }
        Chip {
            objectName: "draftChip_" + area.line
            size: chips.chipSize
            draft: true
            amount: !area.pointPhase && area.draftAmount !== area.contractAmount ? area.draftAmount : 0
        }
    }
    // The result moment: this line's outcome over its chips ("+20", "−10", "push", "refund 10").
    Rectangle {
        id: outcomeBadge
        objectName: "outcome_" + area.line
        visible: area.outcome.length > 0
        anchors { right: chips.left; verticalCenter: parent.verticalCenter; rightMargin: area.fs * 0.6 }
        width: outcomeText.implicitWidth + area.fs * 1.2
        height: outcomeText.implicitHeight + area.fs * 0.4
        radius: Math.min(height, width) / 2
        readonly property bool won: area.outcome.charAt(0) === "+"
        readonly property bool lost: area.outcome.charAt(0) === "\u2212"
        color: won ? "#e9f9ee" : lost ? "#3a0d0d" : "#fdf1cf"
        border.width: 2
        border.color: won ? "#1e8a4c" : lost ? "#ff9a8a" : "#b8860b"
        Accessible.role: Accessible.StaticText
        Accessible.name: "Last throw: " + area.outcome
        // a narrow line (a small phone on its side) stacks a two-word outcome ("refund" over
        // "10") before the badge would cut the line's title and rule
        TextMetrics { id: outcomeOneLine; font: outcomeText.font; text: area.outcome }
        readonly property bool stacked: area.outcome.indexOf(" ") > 0
            && area.width - chips.width - area.fs * 2 - outcomeOneLine.advanceWidth - area.fs * 1.8 < area.fs * 10
        Text {
            id: outcomeText
            anchors.centerIn: parent
            text: outcomeBadge.stacked ? area.outcome.replace(" ", "\n") : area.outcome
            horizontalAlignment: Text.AlignHCenter
            lineHeight: 0.9
            font.pixelSize: area.fs * 1.25
            font.bold: true
            color: outcomeBadge.won ? "#0d5a2e" : outcomeBadge.lost ? "#ffe3de" : "#4a3500"
        }
    }
}
