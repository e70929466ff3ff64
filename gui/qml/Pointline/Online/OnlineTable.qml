import QtQuick
import QtQuick.Layouts
import QtQuick.Controls.Basic
import Pointline
import Pointline.Online

// The online table is the one table (TableView) fed by my seat at it (``online.seatTable``: the
// peer's shared dice and point, my local draft until I commit). Only the online parts are here,
// in the view's slots: the countdown and who is awaited, every seat, and the screen's buttons.
TableView {
    id: screen
    required property OnlineBridge online
    table: online.seatTable
    fontScale: online.fontScale || 1
    namePrefix: "online"
    tableName: "Online table"
    historyTitle: "Your history"
    shortLandscape: !portrait && height < 420
    // a short portrait window keeps the seats and leaves the history to taller windows
    historyShown: !portrait || height >= 600
    sideMinimumHeight: portrait ? seatsPanel.Layout.minimumHeight : 0
    // the screen's four buttons take one row in portrait and on a phone held sideways
    extraColumns: portrait || shortLandscape ? 4 : 2
    function focusFirst() { screen.focusTable(); }
    // the smallest text the online parts draw (a phone's 11 pt, OnlineMain.minText)
    property real minText: 0
    required property var px  // OnlineMain.px: a share of the type size, never under minText

    readonly property int secondsLeft: online.countdown.secondsLeft
    readonly property bool hurry: secondsLeft > 0 && secondsLeft <= 10
    readonly property bool phoneUpright: online.mobile && screen.portrait
    // a small phone on its side: the countdown goes up into the screen's header (OnlineMain),
    // where the title was, and the column keeps its height for the actions
    readonly property bool countdownUp: online.mobile && screen.phoneCompact
    readonly property string countdownLine: (screen.secondsLeft > 0 ? screen.secondsLeft + " s left for throw " : "Throw ") + online.table.nextThrow

    controlsTop: Rectangle {
        objectName: "countdown"
        visible: !screen.countdownUp
        Layout.fillWidth: true
        implicitHeight: cdCol.implicitHeight + screen.gap
        radius: 8
        color: "#10251b"
        border.color: screen.hurry ? "#ff9a8a" : "#2f5a45"
        Accessible.role: Accessible.ProgressBar
        Accessible.name: "Time to choose"
        Accessible.description: screen.secondsLeft + " of " + online.confirmSeconds + " seconds left. " + online.table.awaitedText
        ColumnLayout {
            id: cdCol
            anchors.fill: parent
            anchors.margins: screen.gap * 0.5
            spacing: 2
            Text {
                objectName: "countdownText"
                Layout.fillWidth: true
                // a phone: who is awaited on the same line (the felt keeps the height)
                text: screen.countdownLine
                      + (screen.phoneUpright && online.table.awaitedText.length > 0 ? " · " + online.table.awaitedText : "")
                color: screen.hurry ? "#ff9a8a" : "#fdf6e3"
                font.pixelSize: screen.phoneUpright ? screen.px(0.85) : screen.fs
                font.bold: true
                wrapMode: screen.phoneUpright ? Text.WordWrap : Text.NoWrap
                maximumLineCount: 2
                elide: Text.ElideRight
            }
            Rectangle {
                Layout.fillWidth: true
                implicitHeight: Math.max(4, screen.fs * 0.35)
                radius: height / 2
                color: "#1d3a2c"
                Rectangle {
                    height: parent.height
                    radius: height / 2
                    width: parent.width * Math.min(1, screen.secondsLeft / Math.max(1, online.confirmSeconds))
                    color: screen.hurry ? "#ff9a8a" : "#f2c14e"
                }
            }
            Text {
                objectName: "awaited"
                visible: !screen.phoneUpright
                Layout.fillWidth: true
                text: online.table.awaitedText
                color: "#ffd98a"
                font.pixelSize: screen.px(0.82)
                wrapMode: Text.WordWrap
                maximumLineCount: 2
                elide: Text.ElideRight
            }
        }
    }

    side: Rectangle {
        id: seatsPanel
        objectName: "seats"
        Layout.fillWidth: true
        Layout.fillHeight: !screen.portrait
        Layout.preferredHeight: screen.portrait ? Layout.minimumHeight : -1
        // in portrait the seats sit two abreast and two rows (four seats) stay in sight on a
        // tall phone; an eight-seat room scrolls the rest
        Layout.minimumHeight: screen.portrait
            ? seatsTitle.implicitHeight + seatList.rowsShown * seatList.cellHeight + screen.gap * 1.8
            : screen.fs * 4
        radius: screen.fs * 0.5
        color: "#10251b"
        border.color: "#2f5a45"
        Accessible.role: Accessible.List
        Accessible.name: "Seats at the table"
        ColumnLayout {
            anchors.fill: parent
            anchors.margins: screen.gap * 0.7
            spacing: screen.gap * 0.4
            Text {
                id: seatsTitle
                Layout.fillWidth: true
                text: "Seats (" + online.table.seats.count + ")"
                font.pixelSize: screen.px(0.9)
                font.bold: true
                color: "#f2c14e"
                elide: Text.ElideRight
            }
            GridView {
                id: seatList
                objectName: "seatList"
                readonly property int columns: screen.portrait ? 2 : 1
                // a short phone keeps one row in sight (the felt and the buttons need the rest)
                readonly property int rowsShown: Math.min(screen.height >= 680 ? 2 : 1, Math.ceil(count / columns))
                Layout.fillWidth: true
                Layout.fillHeight: true
                clip: true
                cellWidth: Math.floor(width / columns)
                cellHeight: Math.ceil(screen.fs * 4.4)
                model: online.table.seats
                boundsBehavior: Flickable.StopAtBounds
                ScrollIndicator.vertical: ScrollIndicator { }
                delegate: OnlineSeat {
                    required property var model
                    width: seatList.cellWidth - 4
                    height: seatList.cellHeight - 4
                    fs: screen.fs
                    minText: screen.minText
                    row: model
                }
            }
        }
    }

    GameButton {
        objectName: "btnHelp"; Layout.fillWidth: true; fs: screen.fs
        text: online.mobile ? "Help" : "Help (F1)"
        hint: "Open the rules; online the countdown keeps running"
        onActivated: online.openHelp()
    }
    SoundButton { owner: screen.online; fs: screen.fs }
    WindowButton { owner: screen.online; fs: screen.fs }
    GameButton {
        objectName: "btnLeaveTable"; Layout.fillWidth: true; fs: screen.fs
        text: "Leave table"
        hint: "Asks first: leaving ends the session for everyone without a result"
        onActivated: online.askLeave()
    }
}
