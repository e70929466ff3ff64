import QtQuick

// Points across the session's throws, drawn on a Canvas. The labels have places of their own
// that the line never enters: the start, high and low in a gutter on the left (at their
// heights), the last value in a strip along the top (at the right). ``drawnLine`` is the line
// as painted (x, y pairs): the painter draws it and the layout check reads it.
Canvas {
    id: chart
    property var samples: []
    Accessible.role: Accessible.Chart
    Accessible.name: "Points after each throw"
    Accessible.description: samples.length > 0
        ? "From " + samples[0] + " to " + samples[samples.length - 1] + " over " + (samples.length - 1) + (samples.length === 2 ? " throw" : " throws")
        : ""
    property real fs: 12
    // The drawn range, decided once: the labels name exactly what the line is drawn against.
    property int start: 0
    readonly property int rawLo: samples.length ? Math.min.apply(null, samples.concat([start])) : start
    readonly property int rawHi: samples.length ? Math.max.apply(null, samples.concat([start])) : start
    // At least a tenth of the start each way (±100 around 1,000, issue 39): a session's swings
    // read as swings, and one lost chip never looks like a cliff.
    readonly property int reach: Math.round(start * 0.1)
    readonly property int lo: Math.min(rawLo, start - reach)
    readonly property int hi: Math.max(rawHi, start + reach)
    readonly property real pad: Math.max(6, fs * 1.4)
    readonly property real labelHeight: fs * 0.8 * 1.4
    // the left gutter holds the widest left label; the top strip the last value's label
    readonly property real gutter: Math.max(startLabel.implicitWidth, highLabel.implicitWidth, lowLabel.implicitWidth) + 8
    readonly property real plotTop: (showLast ? labelHeight : 0) + pad * 0.5
    readonly property real plotLeft: gutter + 4
    readonly property real plotRight: width - pad
    function yOf(v) { return height - pad - (height - pad - plotTop) * (v - lo) / Math.max(1, hi - lo); }
    function xOf(i) { return plotLeft + (plotRight - plotLeft) * i / Math.max(1, samples.length - 1); }
    function fmt(v) { return v.toLocaleString(Qt.locale("en_US"), "f", 0); }
    readonly property var drawnLine: {
        var out = [];
        if (samples.length < 2 || width <= 0 || height <= 0) return out;
        for (var i = 0; i < samples.length; i++) out.push(xOf(i), yOf(samples[i]));
        return out;
    }
    // A left label centred on its height; one that would touch the start's is left out.
    function labelY(v) { return Math.max(0, Math.min(height - labelHeight, yOf(v) - labelHeight / 2)); }
    function apart(a, b) { return Math.abs(a - b) >= labelHeight; }
    Text {
        id: startLabel
        objectName: "chartStart"
        anchors { left: parent.left; leftMargin: 4 }
        y: chart.labelY(chart.start)
        text: "start " + chart.fmt(chart.start)
        color: "#fdf6e3"; font.pixelSize: Math.max(11, chart.fs * 0.8)
    }
    // the last value's label (off where the final points are written beside the chart)
    property bool showLast: true
    Text {
        id: highLabel
        objectName: "chartHigh"
        anchors { left: parent.left; leftMargin: 4 }
        y: chart.labelY(chart.hi)
        visible: chart.hi !== chart.start && chart.apart(y, startLabel.y)
        text: chart.fmt(chart.hi)
        color: "#fdf6e3"; font.pixelSize: Math.max(11, chart.fs * 0.8)
    }
    Text {
        id: lowLabel
        objectName: "chartLow"
        anchors { left: parent.left; leftMargin: 4 }
        y: chart.labelY(chart.lo)
        visible: chart.lo !== chart.start && chart.apart(y, startLabel.y)
        text: chart.fmt(chart.lo)
        color: "#fdf6e3"; font.pixelSize: Math.max(11, chart.fs * 0.8)
    }
    Text {
        objectName: "chartLast"
        anchors { right: parent.right; rightMargin: 4 }
        readonly property int last: chart.samples.length ? chart.samples[chart.samples.length - 1] : chart.start
        y: 2
        visible: chart.showLast && chart.samples.length > 0
        text: "after throw " + (chart.samples.length - 1) + ": " + chart.fmt(last)
        color: "#f2c14e"; font.pixelSize: Math.max(11, chart.fs * 0.8); font.bold: true
    }
    onDrawnLineChanged: requestPaint()
    onPaint: {
        var ctx = getContext("2d");
        ctx.reset();
        ctx.fillStyle = "rgba(0,0,0,0.25)";
        ctx.fillRect(0, 0, width, height);
        var line = chart.drawnLine;
        if (line.length < 4) return;
        ctx.strokeStyle = "rgba(253,246,227,0.45)";
        ctx.setLineDash([4, 4]);
        ctx.beginPath(); ctx.moveTo(chart.plotLeft, yOf(chart.start)); ctx.lineTo(chart.plotRight, yOf(chart.start)); ctx.stroke();
        ctx.setLineDash([]);
        ctx.strokeStyle = "#f2c14e"; ctx.lineWidth = 2.5;
        ctx.beginPath(); ctx.moveTo(line[0], line[1]);
        for (var j = 2; j < line.length; j += 2) ctx.lineTo(line[j], line[j + 1]);
        ctx.stroke();
    }
}
