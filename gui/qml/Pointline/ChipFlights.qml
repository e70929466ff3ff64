import QtQuick

// Chips that slide: from the balance to a line when chips are placed, and at the result from
// the line to the balance (win, push, refund) or off the felt (a loss). Off with Reduce motion.
Item {
    id: flights
    property var table: null
    property var lines: []          // the two LineAreas, Pass first
    property Item target: null      // the balance the chips slide to and from
    property bool frozen: false
    z: 6
    property int lastPass: 0
    property int lastDontPass: 0
    Component.onCompleted: { lastPass = table.draftPass; lastDontPass = table.draftDontPass; }

    function balancePoint() {
        if (target) return flights.mapFromItem(target, target.width / 2, target.height / 2);
        return Qt.point(flights.width / 2, -flights.height * 0.1);
    }
    function linePoint(i) {
        var a = lines[i].chipAnchor;
        return flights.mapFromItem(a, a.width - a.height / 2, a.height / 2);
    }
    function fly(i, amount, toLine, swept) {
        if (!enabled || amount <= 0 || !lines[i].visible) return;
        var f = i === 0 ? passFlyer : dontPassFlyer;
        var b = balancePoint(), l = linePoint(i);
        f.amount = amount;
        f.from = toLine ? b : l;
        f.to = swept ? Qt.point(l.x, -f.size) : toLine ? l : b;
        f.run.restart();
    }
    Connections {
        target: flights.table
        function onDraftPassChanged() {
            var d = flights.table.draftPass - flights.lastPass;
            flights.lastPass = flights.table.draftPass;
            if (flights.table.comeOut && d > 0) flights.fly(0, d, true, false);
        }
        function onDraftDontPassChanged() {
            var d = flights.table.draftDontPass - flights.lastDontPass;
            flights.lastDontPass = flights.table.draftDontPass;
            if (flights.table.comeOut && d > 0) flights.fly(1, d, true, false);
        }
        function onRevealStageChanged() {
            if (flights.table.revealStage !== "count") return;
            var names = ["pass", "dont_pass"];
            for (var i = 0; i < 2; i++) {
                // Back to the balance when positive, swept off when negative (history.line_flights).
                var n = flights.table.lineFlights[names[i]] || 0;
                if (n !== 0) flights.fly(i, Math.abs(n), false, n < 0);
            }
        }
    }
    component Flyer: Chip {
        id: flyer
        property point from: Qt.point(0, 0)
        property point to: Qt.point(0, 0)
        property real t: 0
        readonly property alias run: anim
        size: 36
        visible: anim.running
        x: from.x + (to.x - from.x) * t - size / 2
        y: from.y + (to.y - from.y) * t - size / 2 - Math.sin(t * Math.PI) * size
        NumberAnimation {
            id: anim; target: flyer; property: "t"; from: 0; to: 1; duration: 520
            easing.type: Easing.InOutCubic
            paused: running && flights.frozen
        }
    }
    Flyer { id: passFlyer; objectName: "flyer_pass"; tone: "#c0392b" }
    Flyer { id: dontPassFlyer; objectName: "flyer_dont_pass"; tone: "#2c3e50" }
}
