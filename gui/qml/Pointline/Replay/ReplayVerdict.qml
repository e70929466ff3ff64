import QtQuick
import QtQuick.Layouts

// What the check proves, first: OK / INCOMPLETE / FAIL with verify's own sentence, the first
// broken record, who vouches for the names, and every seat with its verification words.
// Everything from the file is shown as plain text (Text.PlainText), already escaped by Python.
ColumnLayout {
    id: verdict
    required property var replay
    property real fs: 14
    // every line of it (a phone: the verdict scrolls with the rest of the details)
    property bool full: false
    // the verdict's word beside its sentence (a phone shows it on the title's line instead)
    property bool wordShown: true
    spacing: fs * 0.3
    readonly property color wordColor: replay.verdictWord === "OK" ? "#7ee2a8"
                                      : replay.verdictWord === "FAIL" ? "#ff9a8a" : "#ffd479"

    RowLayout {
        Layout.fillWidth: true
        spacing: verdict.fs * 0.6
        Text {
            objectName: "replayVerdictWord"
            visible: verdict.wordShown
            text: verdict.replay.verdictWord
            textFormat: Text.PlainText
            color: verdict.wordColor
            font.pixelSize: verdict.fs * 1.3
            font.bold: true
            Accessible.role: Accessible.StaticText
            Accessible.name: text
        }
        Text {
            objectName: "replayVerdictSentence"
            Layout.fillWidth: true
            text: (verdict.replay.verdictRecord ? verdict.replay.verdictRecord + ": " : "")
                  + verdict.replay.verdictSentence
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            maximumLineCount: verdict.full ? 1000 : 6
            elide: Text.ElideRight
            color: "#fdf6e3"
            font.pixelSize: verdict.fs * 0.85
            Accessible.role: Accessible.StaticText
            Accessible.name: text
        }
    }
    Text {
        objectName: "replayVerdictNote"
        visible: text.length > 0
        Layout.fillWidth: true
        text: verdict.replay.verdictNote
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
        color: "#ffd479"
        font.pixelSize: verdict.fs * 0.85
    }
    Text {
        objectName: "replayVouch"
        visible: text.length > 0
        Layout.fillWidth: true
        text: verdict.replay.vouchText
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
        maximumLineCount: verdict.full ? 1000 : 2
        elide: Text.ElideRight
        color: "#cfe3d6"
        font.pixelSize: verdict.fs * 0.8
    }
    // every seat with its key's verification words, to compare with what each player saw
    Flow {
        objectName: "replayVerdictSeats"
        Layout.fillWidth: true
        visible: verdict.replay.seats.length > 0
        spacing: verdict.fs * 0.8
        Repeater {
            model: verdict.replay.seats
            delegate: Text {
                required property var modelData
                // a long name wraps inside the verdict's width, never past it
                width: Math.min(implicitWidth, verdict.width)
                wrapMode: Text.Wrap
                text: modelData.text
                textFormat: Text.PlainText
                color: modelData.you ? "#ffd479" : "#cfe3d6"
                font.pixelSize: verdict.fs * 0.75
                Accessible.role: Accessible.StaticText
                Accessible.name: text
            }
        }
    }
}
