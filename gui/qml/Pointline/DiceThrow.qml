import QtQuick

// The two dice (ThrowStage.qml places them): on each throw they travel across the felt from its
// lower left, tumble and land in the middle of it (``staged``), instantly with Reduce motion.
// ``flight`` runs from 0 (thrown) to 1 (landed). Back in their place in the header they hold
// still.
Row {
    id: dice
    property var table: null
    property real size: 48
    property real travel: 300
    property real drop: 200
    property bool frozen: false
    property bool staged: false
    // landed in the middle of the felt, they cover what is under them for the moment
    property string designRole: staged && !flying ? "cover" : ""
    property real flight: 1
    readonly property bool rolling: table.revealStage === "rolling"
    readonly property bool flying: flight < 1
    property int serial: table.rollSerial
    property int f1: 1
    property int f2: 1
    property bool live: false
    Component.onCompleted: live = true
    onSerialChanged: if (live && serial > 0 && !table.reduceMotion) throwAnimation.restart()
    // a moment skipped mid-flight: the dice are where they land, at once
    onStagedChanged: if (!staged) { throwAnimation.stop(); flight = 1; }
    NumberAnimation {
        id: throwAnimation
        objectName: "throwAnimation"
        target: dice; property: "flight"; from: 0; to: 1; duration: 850
        paused: running && dice.frozen
    }
    Timer {
        interval: 55; repeat: true; running: dice.rolling && !dice.frozen
        onTriggered: { dice.f1 = 1 + Math.floor(Math.random() * 6); dice.f2 = 1 + Math.floor(Math.random() * 6); }
    }
    readonly property real rest: 1 - flight
    transform: Translate {
        x: -dice.travel * dice.rest * dice.rest
        // From low on the felt up to their place, in hops that get lower as the dice slow.
        y: dice.drop * dice.rest * dice.rest - dice.size * 0.7 * Math.abs(Math.sin(dice.flight * Math.PI * 3)) * dice.rest
    }
    spacing: 8
    Die { size: dice.size; value: dice.rolling ? dice.f1 : dice.table.die1; landed: dice.table.die1; rotation: -560 * dice.rest * dice.rest }
    Die { size: dice.size; value: dice.rolling ? dice.f2 : dice.table.die2; landed: dice.table.die2; rotation: 470 * dice.rest * dice.rest }
}
