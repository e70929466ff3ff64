import QtQuick

// The throw is the star (issue 39), solo and online alike: during a throw's result moment the
// dice travel to the middle of the felt and tumble there, land, and a large callout says the
// total and what it did (its words are the table's ``callout``: gui/history.callout_words).
// When the moment is over they go back to their place in the felt's header (``homeAt``), so
// nothing covers a line the player taps next. Under Reduce motion they show landed there at
// once with the callout, for a while that locks nothing (the next action or a tap ends it).
// Screen readers hear the throw from the announcer only: the callout is not read again.
Item {
    id: stage
    property var table: null
    // the dice's place and size in the felt's header, in this item's coordinates
    property point homeAt: Qt.point(0, 0)
    property real homeSize: 48
    property real gap: 8
    property real fs: 14
    property bool frozen: false
    property string diceName: "dice"
    property string calloutName: "callout"
    readonly property bool running: table.revealStage !== ""
    readonly property bool landed: table.callout.length > 0
    // the dice are in the middle of the felt (the moment, or the callout that stays after it)
    readonly property bool staged: running || landed
    // at least 64 px, and a fifth of the felt where there is room
    readonly property real starSize: Math.max(64, Math.min(112, width * 0.2, height * 0.26))
    readonly property real pad: Math.max(8, stage.fs * 0.6)
    readonly property real calloutSize: Math.max(28, Math.min(40, fs * 2.2, height * 0.08))
    // left of the middle (still in its middle third): each line's outcome and chips (at its
    // right end) stay in sight beside the dice, and beside the callout where the felt is wide
    readonly property real centreX: width * 0.4
    readonly property bool wide: width * 0.64 >= 280
    readonly property real room: wide ? width * 0.64 - gap : width - gap * 2
    readonly property alias dice: dice

    DiceThrow {
        id: dice
        objectName: stage.diceName
        table: stage.table
        staged: stage.staged
        size: stage.staged ? stage.starSize : stage.homeSize
        spacing: stage.staged ? stage.starSize * 0.3 : stage.gap
        x: stage.staged ? stage.centreX - width / 2 : stage.homeAt.x
        // a little above the middle: the callout goes under them
        y: stage.staged ? Math.max(stage.gap, stage.height * 0.4 - height / 2) : stage.homeAt.y
        // thrown from the felt's lower left edge (never from outside the felt)
        travel: Math.max(0, stage.centreX - width / 2 - stage.gap)
        drop: stage.height * 0.4
        frozen: stage.frozen
    }

    Rectangle {
        id: plaque
        objectName: stage.calloutName
        // a card over the felt while it shows: what lies under it is covered (the layout
        // check reads no text under it as drawn over)
        property string designRole: "cover"
        visible: stage.landed
        x: stage.wide ? Math.max(stage.gap, Math.min(stage.centreX - width / 2, stage.width * 0.64 - width))
                      : (stage.width - width) / 2
        y: Math.min(dice.y + dice.height + stage.gap, stage.height - height - stage.gap)
        width: calloutText.width + stage.pad * 2
        height: calloutText.height + stage.pad * 1.4
        radius: stage.pad
        color: "#0b2e20"
        border.color: "#e8c86a"
        border.width: 2
        Accessible.ignored: true
        TextMetrics { id: oneLine; font: calloutText.font; text: calloutText.text }
        // the words at the callout's own size: a long one shrinks to about three lines
        TextMetrics {
            id: atBase
            font.family: calloutText.font.family; font.bold: true; font.pixelSize: stage.calloutSize
            text: calloutText.text
        }
        Text {
            id: calloutText
            objectName: stage.calloutName + "Text"
            anchors.centerIn: parent
            width: Math.min(Math.ceil(oneLine.advanceWidth) + 2, stage.room - stage.pad * 2)
            height: contentHeight
            text: stage.table.callout
            font.family: "DejaVu Serif"
            font.bold: true
            // large: 28 px to 40 (a long callout on a small felt down to 24: the goal is 24 pt)
            font.pixelSize: Math.max(24, Math.min(stage.calloutSize,
                stage.calloutSize * 3 * (stage.room - stage.pad * 2) / Math.max(1, atBase.advanceWidth * 1.15)))
            color: "#fff0b8"  // about 13:1 on the card
            horizontalAlignment: Text.AlignHCenter
            // at word boundaries (a line's result is one word: no-break spaces), anywhere only
            // where even that is wider than the felt
            wrapMode: Text.Wrap
            Accessible.ignored: true
        }
    }
}
