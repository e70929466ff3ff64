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
    padding: 0
    background: Item { }

    // The control this step points at, found by its objectName in the window.
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
        target = visible ? find(Overlay.overlay.Window.contentItem, bridge.extras.guideTarget) : null;
        if (target) {
            var p = target.mapToItem(layer, 0, 0);
            ring = Qt.rect(p.x, p.y, target.width, target.height);
        }
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

        Rectangle {
            id: card
            objectName: "guideCard"
            // Away from the ring: below it when it is in the upper half, else above it.
            readonly property bool below: !guideOverlay.target || guideOverlay.ring.y + guideOverlay.ring.height / 2 < layer.height / 2
            width: Math.min(layer.width - guideOverlay.gap * 2, guideOverlay.fs * 30)
            height: cardCol.implicitHeight + guideOverlay.gap * 2
            x: (layer.width - width) / 2
            y: !guideOverlay.target ? (layer.height - height) / 2
               : below ? Math.min(layer.height - height - guideOverlay.gap - (bridge.insets.bottom || 0), guideOverlay.ring.y + guideOverlay.ring.height + 14)
               : Math.max(guideOverlay.gap + (bridge.insets.top || 0), guideOverlay.ring.y - height - 14)
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
                    objectName: "guideTitle"
                    Layout.fillWidth: true
                    text: bridge.extras.guideTitle + "  ·  " + (bridge.extras.guideStep + 1) + " of " + bridge.extras.guideSteps
                    font.pixelSize: guideOverlay.fs * 1.2
                    wrapMode: Text.WordWrap
                }
                Text {
                    objectName: "guideText"
                    Layout.fillWidth: true
                    text: bridge.extras.guideText
                    font.pixelSize: guideOverlay.fs
                    color: "#fdf6e3"
                    wrapMode: Text.WordWrap
                    Accessible.role: Accessible.StaticText
                    Accessible.name: text
                }
                RowLayout {
                    Layout.fillWidth: true
                    spacing: guideOverlay.gap
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
