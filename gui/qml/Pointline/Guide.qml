import QtQuick
import QtQuick.Layouts
import QtQuick.Controls.Basic

// The first-hand guide: a few steps pointing at the lines, Allocate, Confirm and Roll. Shown
// once on first launch, reopened from Help; Skip, Escape or Back close it. It never submits
// anything: while it is open the bridge refuses every action (gui/extras.py).
TablePopup {
    required property var bridge  // the solo table's bridge (Main.qml passes it)
    id: guideOverlay
    objectName: "guideOverlay"
    property real gap: 8
    visible: bridge.extras.guideOpen
    title: "Guide"
    shade: "#b0061a10"
    // The whole window: the ring is drawn around a control of the table, the card beside it.
    width: Overlay.overlay.width
    height: Overlay.overlay.height
    // (the whole window, bars included: the card keeps itself inside the safe area)
    x: 0; y: 0
    topMargin: 0; bottomMargin: 0; leftMargin: 0; rightMargin: 0
    padding: 0
    background: Item { }

    // The controls this step points at (its target: objectNames, space-separated), found in
    // the window; the ring goes around them all.
    function find(item, name) {
        if (!item || !name) return null;
        if (item.objectName === name && item.visible) return item;
        var kids = item.children;
        for (var i = 0; i < kids.length; i++) {
            var hit = find(kids[i], name);
            if (hit) return hit;
        }
        return null;
    }
    property Item target: null
    property rect ring: Qt.rect(0, 0, 0, 0)
    function locate() {
        var names = visible ? bridge.extras.guideTarget.split(" ").filter(function(n) { return n.length > 0; }) : [];
        var root = Overlay.overlay.Window.contentItem, first = null;
        var x0 = 0, y0 = 0, x1 = 0, y1 = 0;
        for (var i = 0; i < names.length; i++) {
            var it = find(root, names[i]);
            if (!it) continue;
            var p = it.mapToItem(layer, 0, 0);
            if (!first) { first = it; x0 = p.x; y0 = p.y; x1 = p.x + it.width; y1 = p.y + it.height; }
            else { x0 = Math.min(x0, p.x); y0 = Math.min(y0, p.y); x1 = Math.max(x1, p.x + it.width); y1 = Math.max(y1, p.y + it.height); }
        }
        target = first;
        if (first) ring = Qt.rect(x0, y0, x1 - x0, y1 - y0);
    }
    // The table lays itself out after the guide opens (and on resize): follow the target.
    Timer { interval: 200; repeat: true; running: guideOverlay.visible; onTriggered: guideOverlay.locate() }
    readonly property int step: bridge.extras.guideStep
    onStepChanged: Qt.callLater(locate)
    onWidthChanged: Qt.callLater(locate)
    onHeightChanged: Qt.callLater(locate)
    onVisibleChanged: Qt.callLater(locate)
    onOpened: guideNext.forceActiveFocus()
    onEscaped: bridge.escape()
    onMuteToggled: bridge.toggleMute()
    onClosed: giveBackFocus()
    function buttons() { return [guideBack, guideNext, guideSkip].filter(function(b) { return b.visible && b.enabled; }); }
    function cycle(step) {
        var list = buttons(), at = list.indexOf(Overlay.overlay.Window.activeFocusItem);
        list[(at + step + list.length) % list.length].forceActiveFocus();
    }

    Item {
        id: layer
        anchors.fill: parent
        Keys.onTabPressed: function(event) { guideOverlay.cycle(1); event.accepted = true; }
        Keys.onBacktabPressed: function(event) { guideOverlay.cycle(-1); event.accepted = true; }
        Keys.onRightPressed: function(event) { bridge.extras.nextGuide(); event.accepted = true; }
        Keys.onLeftPressed: function(event) { bridge.extras.backGuide(); event.accepted = true; }

        // The ring around the control the step is about.
        Rectangle {
            objectName: "guideRing"
            visible: guideOverlay.target !== null
            x: guideOverlay.ring.x - 6
            y: guideOverlay.ring.y - 6
            width: guideOverlay.ring.width + 12
            height: guideOverlay.ring.height + 12
            radius: 10
            color: "#30f2c14e"
            border.color: "#f2c14e"
            border.width: 4
            Accessible.ignored: true
        }

        // Where the card fits without covering what the step explains: below or above the
        // ring (the side away from it first), else beside it (a phone on its side: the two
        // lines fill the felt's height), else where it covers least.
        QtObject {
            id: place
            readonly property real gap: 14  // the ring's own width and a little air
            readonly property real safeTop: guideOverlay.gap + (bridge.insets.top || 0)
            readonly property real safeBottom: layer.height - guideOverlay.gap - (bridge.insets.bottom || 0)
            readonly property real safeLeft: guideOverlay.gap + (bridge.insets.left || 0)
            readonly property real safeRight: layer.width - guideOverlay.gap - (bridge.insets.right || 0)
            readonly property rect r: guideOverlay.ring
            readonly property real wide: Math.min(safeRight - safeLeft, guideOverlay.fs * 30)
            readonly property real below: safeBottom - (r.y + r.height + gap)
            readonly property real above: r.y - gap - safeTop
            readonly property real toRight: safeRight - (r.x + r.width + gap)
            readonly property real toLeft: r.x - gap - safeLeft
            // the card's height at its usual width (measured apart: the card's own height
            // follows the width its place gives it)
            readonly property real height0: probeTitle.height + probeText.height + cardCol.spacing * 2
                + guideNext.implicitHeight + guideOverlay.gap * 2
            readonly property bool lowFirst: r.y + r.height / 2 < layer.height / 2
            readonly property string where: !guideOverlay.target ? "centre"
                : lowFirst && below >= height0 ? "below"
                : above >= height0 ? "above"
                : below >= height0 ? "below"
                : Math.max(toRight, toLeft) >= guideOverlay.fs * 11 ? (toRight >= toLeft ? "right" : "left")
                : lowFirst ? "below" : "above"
        }
        Text {
            id: probeTitle
            visible: false
            width: place.wide - guideOverlay.gap * 2
            text: guideTitle.text
            font: guideTitle.font
            wrapMode: Text.WordWrap
        }
        Text {
            id: probeText
            visible: false
            width: place.wide - guideOverlay.gap * 2
            text: guideText.text
            font: guideText.font
            wrapMode: Text.WordWrap
        }
        Rectangle {
            id: card
            objectName: "guideCard"
            readonly property bool beside: place.where === "right" || place.where === "left"
            // beside the ring: as wide as the room there; the buttons one above the other
            // when three in a row would be narrower than a thumb
            readonly property bool narrow: width < guideOverlay.fs * 20
            width: beside ? Math.min(place.wide, place.where === "right" ? place.toRight : place.toLeft) : place.wide
            height: cardCol.implicitHeight + guideOverlay.gap * 2
            x: place.where === "right" ? place.r.x + place.r.width + place.gap
               : place.where === "left" ? place.r.x - place.gap - width
               : place.safeLeft + (place.safeRight - place.safeLeft - width) / 2
            y: place.where === "centre" ? (layer.height - height) / 2
               : beside ? Math.max(place.safeTop, Math.min(place.safeBottom - height, place.r.y + place.r.height / 2 - height / 2))
               : place.where === "below" ? Math.min(place.safeBottom - height, place.r.y + place.r.height + place.gap)
               : Math.max(place.safeTop, place.r.y - height - place.gap)
            radius: guideOverlay.fs * 0.6
            color: "#123d2b"
            border.color: "#f2c14e"
            border.width: 2
            Accessible.role: Accessible.Dialog
            Accessible.name: "Guide, step " + (bridge.extras.guideStep + 1) + " of " + bridge.extras.guideSteps
            Accessible.description: bridge.extras.guideTitle + ". " + bridge.extras.guideText
            ColumnLayout {
                id: cardCol
                anchors.left: parent.left
                anchors.right: parent.right
                anchors.top: parent.top
                anchors.margins: guideOverlay.gap
                spacing: guideOverlay.gap * 0.6
                Heading {
                    id: guideTitle
                    objectName: "guideTitle"
                    Layout.fillWidth: true
                    text: bridge.extras.guideTitle + "  ·  " + (bridge.extras.guideStep + 1) + " of " + bridge.extras.guideSteps
                    font.pixelSize: guideOverlay.fs * 1.2
                    wrapMode: Text.WordWrap
                }
                Text {
                    id: guideText
                    objectName: "guideText"
                    Layout.fillWidth: true
                    text: bridge.extras.guideText
                    font.pixelSize: guideOverlay.fs
                    color: "#fdf6e3"
                    wrapMode: Text.WordWrap
                    Accessible.role: Accessible.StaticText
                    Accessible.name: text
                }
                GridLayout {
                    Layout.fillWidth: true
                    columns: card.narrow ? 1 : 3
                    rowSpacing: guideOverlay.gap * 0.6
                    columnSpacing: guideOverlay.gap
                    GameButton {
                        id: guideSkip
                        objectName: "btnGuideSkip"
                        Layout.fillWidth: true
                        fs: guideOverlay.fs * 0.9
                        text: bridge.mobile ? "Skip" : "Skip (Esc)"
                        hint: "Close the guide; Help opens it again"
                        onActivated: bridge.extras.skipGuide()
                    }
                    GameButton {
                        id: guideBack
                        objectName: "btnGuideBack"
                        Layout.fillWidth: true
                        fs: guideOverlay.fs * 0.9
                        text: "Back"
                        enabled: bridge.extras.guideStep > 0
                        reason: "This is the first step"
                        hint: "The previous step"
                        onActivated: bridge.extras.backGuide()
                    }
                    GameButton {
                        id: guideNext
                        objectName: "btnGuideNext"
                        Layout.fillWidth: true
                        fs: guideOverlay.fs * 0.9
                        primary: true
                        text: bridge.extras.guideStep + 1 < bridge.extras.guideSteps ? "Next" : "Done"
                        hint: "The next step"
                        onActivated: bridge.extras.nextGuide()
                    }
                }
            }
        }
    }
}
