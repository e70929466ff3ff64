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
    readonly property int lo: samples.length ? Math.min.apply(null, samples.concat([1000])) : 1000
    readonly property int hi: samples.length ? Math.max.apply(null, samples.concat([1000])) : 1000
    Text {
        anchors { left: parent.left; top: parent.top; margins: 4 }
        text: "high " + chart.hi.toLocaleString(Qt.locale("en_US"), "f", 0)
        color: "#fdf6e3"; font.pixelSize: chart.fs * 0.8
    }
    Text {
        anchors { left: parent.left; bottom: parent.bottom; margins: 4 }
        text: "low " + chart.lo.toLocaleString(Qt.locale("en_US"), "f", 0)
        color: "#fdf6e3"; font.pixelSize: chart.fs * 0.8
    }
    Text {
        anchors { right: parent.right; top: parent.top; margins: 4 }
        visible: chart.samples.length > 0
        text: "throw " + (chart.samples.length - 1) + ": " + (chart.samples.length ? chart.samples[chart.samples.length - 1].toLocaleString(Qt.locale("en_US"), "f", 0) : "")
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
        var lo = 1000, hi = 1000;
        for (var i = 0; i < samples.length; i++) { lo = Math.min(lo, samples[i]); hi = Math.max(hi, samples[i]); }
        if (hi - lo < 20) { hi += 10; lo -= 10; }
        var pad = Math.max(6, fs * 1.4);
        function x(i) { return pad + (width - 2 * pad) * i / (samples.length - 1); }
        function y(v) { return height - pad - (height - 2 * pad) * (v - lo) / (hi - lo); }
        ctx.strokeStyle = "rgba(253,246,227,0.45)";
        ctx.setLineDash([4, 4]);
        ctx.beginPath(); ctx.moveTo(pad, y(1000)); ctx.lineTo(width - pad, y(1000)); ctx.stroke();
        ctx.setLineDash([]);
        ctx.strokeStyle = "#f2c14e"; ctx.lineWidth = 2.5;
        ctx.beginPath(); ctx.moveTo(x(0), y(samples[0]));
        for (var j = 1; j < samples.length; j++) ctx.lineTo(x(j), y(samples[j]));
        ctx.stroke();
    }
}
