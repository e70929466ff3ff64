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
    Text {
        anchors { left: parent.left; leftMargin: 4 }
        y: chart.yOf(chart.hi) - height / 2
        visible: chart.hi !== chart.start
        text: chart.fmt(chart.hi)
        color: "#fdf6e3"; font.pixelSize: chart.fs * 0.8
    }
    Text {
        anchors { left: parent.left; leftMargin: 4 }
        y: chart.yOf(chart.lo) - height / 2
        visible: chart.lo !== chart.start
        text: chart.fmt(chart.lo)
        color: "#fdf6e3"; font.pixelSize: chart.fs * 0.8
    }
    Text {
        anchors { right: parent.right; rightMargin: 4 }
        y: Math.max(0, Math.min(chart.height - height, chart.yOf(chart.start) - height - 2))
        text: "start " + chart.fmt(chart.start)
        color: "#fdf6e3"; font.pixelSize: chart.fs * 0.8
    }
    // the last value's label (off where the final points are written beside the chart)
    property bool showLast: true
    Text {
        anchors { right: parent.right; top: parent.top; margins: 4 }
        visible: chart.showLast && chart.samples.length > 0
        text: "after throw " + (chart.samples.length - 1) + ": " + (chart.samples.length ? chart.fmt(chart.samples[chart.samples.length - 1]) : "")
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
