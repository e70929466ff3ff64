import QtQuick

// Points across the session's throws, drawn on a Canvas.
Canvas {
    id: chart
    property var samples: []
    Accessible.role: Accessible.Chart
    Accessible.name: "Points after each throw"
    Accessible.description: samples.length > 0
        ? "From " + samples[0] + " to " + samples[samples.length - 1] + " over " + (samples.length - 1) + " throws"
        : ""
    property real fs: 12
    // The drawn range, decided once: the labels name exactly what the line is drawn against.
    property int start: 0
    readonly property int rawLo: samples.length ? Math.min.apply(null, samples.concat([start])) : start
    readonly property int rawHi: samples.length ? Math.max.apply(null, samples.concat([start])) : start
    readonly property int lo: rawHi - rawLo < 20 ? rawLo - 10 : rawLo
    readonly property int hi: rawHi - rawLo < 20 ? rawHi + 10 : rawHi
    readonly property real pad: Math.max(6, fs * 1.4)
    function yOf(v) { return height - pad - (height - 2 * pad) * (v - lo) / Math.max(1, hi - lo); }
    function fmt(v) { return v.toLocaleString(Qt.locale("en_US"), "f", 0); }
    // Labels: the start and the session's high and low on the left, at their heights; the
    // last value on the right, at its height. A label that would touch another is left out.
    readonly property real labelHeight: fs * 0.8 * 1.4
    // Just above the dashed start line (below it when the line is at the top), off the curve.
    readonly property real startY: yOf(start) - labelHeight - 1 >= 0
        ? yOf(start) - labelHeight - 1 : clampY(yOf(start) + labelHeight / 2 + 1)
    function clampY(y) { return Math.max(0, Math.min(height - labelHeight, y - labelHeight / 2)); }
    function apart(a, b) { return Math.abs(a - b) >= labelHeight; }
    Text {
        objectName: "chartStart"
        anchors { left: parent.left; leftMargin: 4 }
        y: chart.startY
        text: "start " + chart.fmt(chart.start)
        color: "#fdf6e3"; font.pixelSize: chart.fs * 0.8
    }
    Text {
        objectName: "chartHigh"
        anchors { left: parent.left; leftMargin: 4 }
        y: chart.clampY(chart.yOf(chart.hi))
        visible: chart.hi !== chart.start && chart.apart(y, chart.startY)
        text: chart.fmt(chart.hi)
        color: "#fdf6e3"; font.pixelSize: chart.fs * 0.8
    }
    Text {
        objectName: "chartLow"
        anchors { left: parent.left; leftMargin: 4 }
        y: chart.clampY(chart.yOf(chart.lo))
        visible: chart.lo !== chart.start && chart.apart(y, chart.startY)
        text: chart.fmt(chart.lo)
        color: "#fdf6e3"; font.pixelSize: chart.fs * 0.8
    }
    Text {
        objectName: "chartLast"
        anchors { right: parent.right; rightMargin: 4 }
        readonly property int last: chart.samples.length ? chart.samples[chart.samples.length - 1] : chart.start
        // Above the line's end, or below it when that is too near the top.
        y: Math.max(0, Math.min(chart.height - height, chart.yOf(last) - height - 2 < 0 ? chart.yOf(last) + 2 : chart.yOf(last) - height - 2))
        visible: chart.samples.length > 0
        text: "after throw " + (chart.samples.length - 1) + ": " + chart.fmt(last)
        color: "#f2c14e"; font.pixelSize: chart.fs * 0.8; font.bold: true
    }
    onSamplesChanged: requestPaint()
    onWidthChanged: requestPaint()
    onHeightChanged: requestPaint()
    onPaint: {
        var ctx = getContext("2d");
        ctx.reset();
        ctx.fillStyle = "rgba(0,0,0,0.25)";
        ctx.fillRect(0, 0, width, height);
        if (samples.length < 2) return;
        var pad = chart.pad;
        function x(i) { return pad + (width - 2 * pad) * i / (samples.length - 1); }
        function y(v) { return chart.yOf(v); }
        ctx.strokeStyle = "rgba(253,246,227,0.45)";
        ctx.setLineDash([4, 4]);
        ctx.beginPath(); ctx.moveTo(pad, y(chart.start)); ctx.lineTo(width - pad, y(chart.start)); ctx.stroke();
        ctx.setLineDash([]);
        ctx.strokeStyle = "#f2c14e"; ctx.lineWidth = 2.5;
        ctx.beginPath(); ctx.moveTo(x(0), y(samples[0]));
        for (var j = 1; j < samples.length; j++) ctx.lineTo(x(j), y(samples[j]));
        ctx.stroke();
    }
}
