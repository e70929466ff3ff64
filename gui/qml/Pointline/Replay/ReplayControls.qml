import QtQuick
import QtQuick.Layouts
import Pointline

// The replay's own controls: Start, Back, Play/Pause, Next, End, the hands, the dice panel,
// Leave; and the timeline of throws (one button per throw, a tap goes to it).
ColumnLayout {
    id: controls
    required property var replay
    property real fs: 14
    property bool compact: false
    signal diceRequested()
    spacing: fs * 0.3
    function focusFirst() { playButton.forceActiveFocus(); }

    // the timeline: as many throws as fit, around the one shown (a tap goes to it)
    Item {
        id: timeline
        objectName: "replayTimeline"
        Layout.fillWidth: true
        Layout.preferredHeight: 48
        readonly property int slot: 52
        readonly property int fits: Math.max(1, Math.floor((width + 4) / slot))
        readonly property var all: controls.replay.timeline
        readonly property int first: Math.max(0, Math.min(all.length - fits, controls.replay.step - 1 - Math.floor(fits / 2)))
        Accessible.role: Accessible.List
        Accessible.name: controls.replay.texts.timeline
        Row {
            spacing: 4
            Repeater {
                model: timeline.all.slice(timeline.first, timeline.first + timeline.fits)
                delegate: GameButton {
                    required property var modelData
                    fs: controls.fs * 0.8
                    width: 48
                    text: modelData.label
                    hint: modelData.text
                    activeFocusOnTab: false
                    primary: modelData.step === controls.replay.step
                    onActivated: controls.replay.goTo(modelData.step)
                }
            }
        }
    }
    GridLayout {
        Layout.fillWidth: true
        columns: controls.compact ? 4 : 8
        readonly property real buttonFs: controls.fs * 0.85
        rowSpacing: 4
        columnSpacing: 4
        GameButton {
            objectName: "replayFirst"
            Layout.fillWidth: true; fs: controls.fs * 0.85
            text: controls.replay.texts.first
            enabled: controls.replay.step > 0
            onActivated: controls.replay.first()
        }
        GameButton {
            objectName: "replayBack"
            Layout.fillWidth: true; fs: controls.fs * 0.85
            text: controls.replay.texts.back
            enabled: controls.replay.step > 0
            onActivated: controls.replay.back()
        }
        GameButton {
            id: playButton
            objectName: "replayPlay"
            Layout.fillWidth: true; fs: controls.fs * 0.85
            primary: true
            text: controls.replay.playing ? controls.replay.texts.pause : controls.replay.texts.play
            enabled: controls.replay.steps > 0
            onActivated: controls.replay.togglePlay()
        }
        GameButton {
            objectName: "replayForward"
            Layout.fillWidth: true; fs: controls.fs * 0.85
            text: controls.replay.texts.forward
            enabled: controls.replay.step < controls.replay.steps
            onActivated: controls.replay.forward()
        }
        GameButton {
            objectName: "replayLast"
            Layout.fillWidth: true; fs: controls.fs * 0.85
            text: controls.replay.texts.last
            enabled: controls.replay.step < controls.replay.steps
            onActivated: controls.replay.last()
        }
        GameButton {
            objectName: "replayHand"
            Layout.fillWidth: true; fs: controls.fs * 0.85
            text: controls.replay.texts.hand + " " + Math.max(1, controls.replay.hand)
            hint: controls.replay.texts.nextHand
            enabled: controls.replay.hands.length > 1
            onActivated: {
                var hands = controls.replay.hands;
                var at = hands.indexOf(controls.replay.hand);
                controls.replay.jumpToHand(hands[(at + 1) % hands.length]);
            }
        }
        GameButton {
            objectName: "replayHowMade"
            Layout.fillWidth: true; fs: controls.fs * 0.85
            text: controls.compact ? controls.replay.texts.howMadeShort : controls.replay.texts.howMade
            hint: controls.replay.texts.howMade
            enabled: controls.replay.step > 0
            onActivated: controls.diceRequested()
        }
        GameButton {
            objectName: "replayLeave"
            Layout.fillWidth: true; fs: controls.fs * 0.85
            text: controls.replay.texts.leave
            onActivated: controls.replay.leave()
        }
    }
}
