import QtQuick
import QtQuick.Layouts
import Pointline

// The replay's own controls: Start, Back, Play/Pause, Next, End, the hands, the dice panel,
// Leave; and the timeline of throws (one button per throw, a tap goes to it).
// A phone (``phone``): Next, the main control, is the largest, at the bottom under the thumb
// (sideways at the right edge), with Back beside it; the others are smaller, above them, with
// History (the seat's history opens in a sheet).
ColumnLayout {
    id: controls
    required property var replay
    property real fs: 14
    property bool compact: false
    property bool phone: false
    signal diceRequested()
    signal historyRequested()
    spacing: fs * 0.3
    // the first control: Play, or with no throw to step through Leave replay
    function focusFirst() {
        if (playButton.enabled) playButton.forceActiveFocus();
        else leaveButton.forceActiveFocus();
    }
    readonly property real buttonFs: phone ? fs * 0.8 : fs * 0.85
    readonly property real mainHeight: Math.max(64, fs * 4)

    component FirstButton: GameButton {
        Layout.fillWidth: !controls.phone
        fs: controls.buttonFs
        text: controls.replay.texts.first
        enabled: controls.replay.step > 0
        onActivated: controls.replay.first()
    }
    component LastButton: GameButton {
        Layout.fillWidth: !controls.phone
        fs: controls.buttonFs
        text: controls.replay.texts.last
        enabled: controls.replay.step < controls.replay.steps
        onActivated: controls.replay.last()
    }
    component BackButton: GameButton {
        Layout.fillWidth: true
        fs: controls.buttonFs
        text: controls.replay.texts.back
        enabled: controls.replay.step > 0
        onActivated: controls.replay.back()
    }
    component ForwardButton: GameButton {
        Layout.fillWidth: true
        fs: controls.buttonFs
        text: controls.replay.texts.forward
        enabled: controls.replay.step < controls.replay.steps
        onActivated: controls.replay.forward()
    }

    // the timeline: as many throws as fit, around the one shown (a tap goes to it); a phone
    // keeps Start and End at its two ends
    RowLayout {
        Layout.fillWidth: true
        spacing: 4
        FirstButton {
            visible: controls.phone
            objectName: controls.phone ? "replayFirst" : ""
            Layout.preferredWidth: Math.max(64, controls.fs * 4)
        }
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
        LastButton {
            visible: controls.phone
            objectName: controls.phone ? "replayLast" : ""
            Layout.preferredWidth: Math.max(64, controls.fs * 4)
        }
    }
    GridLayout {
        id: grid
        Layout.fillWidth: true
        columns: controls.phone ? (controls.compact ? 5 : 3) : controls.compact ? 4 : 8
        rowSpacing: 4
        columnSpacing: 4
        FirstButton { visible: !controls.phone; objectName: controls.phone ? "" : "replayFirst" }
        BackButton { visible: !controls.phone; objectName: controls.phone ? "" : "replayBack" }
        GameButton {
            id: playButton
            objectName: "replayPlay"
            Layout.fillWidth: true; fs: controls.buttonFs
            primary: !controls.phone
            text: controls.replay.playing ? controls.replay.texts.pause : controls.replay.texts.play
            enabled: controls.replay.steps > 0
            onActivated: controls.replay.togglePlay()
        }
        ForwardButton { visible: !controls.phone; objectName: controls.phone ? "" : "replayForward" }
        LastButton { visible: !controls.phone; objectName: controls.phone ? "" : "replayLast" }
        GameButton {
            objectName: "replayHand"
            Layout.fillWidth: true; fs: controls.buttonFs
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
            Layout.fillWidth: true; fs: controls.buttonFs
            text: controls.compact || controls.phone ? controls.replay.texts.howMadeShort : controls.replay.texts.howMade
            hint: controls.replay.texts.howMade
            enabled: controls.replay.step > 0
            onActivated: controls.diceRequested()
        }
        GameButton {
            objectName: "replayHistoryButton"
            visible: controls.phone
            Layout.fillWidth: true; fs: controls.buttonFs
            text: controls.replay.texts.history
            hint: controls.replay.texts.historyHint
            onActivated: controls.historyRequested()
        }
        GameButton {
            id: leaveButton
            objectName: "replayLeave"
            Layout.fillWidth: true; fs: controls.buttonFs
            text: controls.replay.texts.leave
            onActivated: controls.replay.leave()
        }
    }
    // a phone: Back and Next, Next the largest control (its place is the same at every step)
    RowLayout {
        id: mainRow
        objectName: "replayMainRow"
        visible: controls.phone
        Layout.fillWidth: true
        Layout.fillHeight: false
        Layout.preferredHeight: controls.mainHeight
        Layout.maximumHeight: controls.mainHeight
        spacing: 4
        BackButton {
            objectName: controls.phone ? "replayBack" : ""
            visible: controls.phone
            Layout.fillHeight: true
            Layout.horizontalStretchFactor: 1
            fs: controls.fs
        }
        // the main control, the largest, at the right edge (under the thumb)
        ForwardButton {
            objectName: controls.phone ? "replayForward" : ""
            property string designRole: "main"
            visible: controls.phone
            Layout.fillHeight: true
            Layout.horizontalStretchFactor: 2
            fs: controls.fs * 1.15
            primary: true
        }
    }
}
