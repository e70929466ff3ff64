import QtQuick
import QtQuick.Layouts
import QtQuick.Controls.Basic
import Pointline
import Pointline.Online

// The lobby: create a room (its join code) or join one; the roster with verification words;
// the creator starts when 2 to 8 people are in.
FocusScope {
    id: screen
    required property OnlineBridge online
    property real fs: 14
    property real gap: 8
    // the smallest text a screen may draw (a phone's 11 pt, OnlineMain.minText): a small
    // text is its share of the base size, never under it
    property real minText: 0
    required property var px  // OnlineMain.px: a share of the type size, never under minText
    readonly property bool portrait: height > width
    readonly property bool inRoom: online.lobby.roomCode.length > 0
    // In a room, focus rests on the join code: never on Leave room, which a stray Enter would
    // press, nor on Start, which a stray Space would press before the words are compared out
    // loud; the creator reaches Start by Tab, pointer or touch.
    // A hosted table's host screen has no join code (guests tap the table nearby): the focus
    // rests on the panel with the certificate words instead.
    function focusFirst() {
        if (screen.hosting) hostPanel.forceActiveFocus();
        else if (screen.inRoom) roomCodeBox.forceActiveFocus(); else createButton.forceActiveFocus();
    }
    // Only while the lobby is the screen shown: a room that starts at once (the last seat
    // joined) would pull the focus back from the table to this hidden code, and a reader's
    // focus events in that flood prune the session's first words (issue 40).
    onInRoomChanged: Qt.callLater(function() { if (online.screen === "lobby") screen.focusFirst(); })
    readonly property bool hosting: online.host.hosting
    onHostingChanged: Qt.callLater(focusFirst)

    GridLayout {
        anchors.fill: parent
        columns: screen.portrait ? 1 : 2
        rowSpacing: screen.gap
        columnSpacing: screen.gap * 2

        // ---------------- the room: whose table, the notice, the join code (on a short phone
        // its words scroll; the buttons below stay in sight)
        Flickable {
            id: infoFlick
            objectName: "lobbyInfo"
            Layout.row: 0
            Layout.column: 0
            Layout.fillWidth: screen.portrait
            Layout.preferredWidth: screen.portrait ? -1 : screen.width * 0.42
            Layout.fillHeight: true
            Layout.preferredHeight: info.implicitHeight
            Layout.maximumHeight: info.implicitHeight
            contentHeight: info.implicitHeight
            clip: true
            boundsBehavior: Flickable.StopAtBounds
            ScrollIndicator.vertical: ScrollIndicator { }
            ColumnLayout {
                id: info
                width: infoFlick.width
                spacing: screen.gap
                Heading {
                    Layout.fillWidth: true
                    objectName: "lobbyHeading"
                    text: screen.hosting ? online.host.tableName : "Lobby"
                    font.pixelSize: screen.fs * 1.3
                    elide: Text.ElideRight
                }
                Rectangle {
                    id: roomCodeBox
                    visible: screen.inRoom && !screen.hosting  // a hosted table needs no code
                    objectName: "roomCodeBox"
                    Layout.fillWidth: true
                    implicitHeight: codeCol.implicitHeight + screen.gap * 2
                    radius: 10
                    color: "#10251b"
                    activeFocusOnTab: visible || activeFocus  // dropped once focus has left (Qt refuses it while focused)
                    border.color: activeFocus ? "#ffffff" : "#f2c14e"
                    border.width: activeFocus ? 3 : 2
                    Accessible.role: Accessible.StaticText
                    Accessible.name: "Room join code " + online.lobby.roomCode.split("").join(" ")
                    ColumnLayout {
                        id: codeCol
                        anchors.fill: parent
                        anchors.margins: screen.gap
                        spacing: 2
                        Text { text: "Join code"; color: "#cfe3d6"; font.pixelSize: screen.px(0.85) }
                        Text {
                            objectName: "roomCode"
                            text: online.lobby.roomCode
                            color: "#fdf6e3"
                            font.family: "DejaVu Sans Mono"
                            font.pixelSize: screen.fs * 2.2
                            font.bold: true
                            font.letterSpacing: 4
                        }
                        Text {
                            Layout.fillWidth: true
                            text: online.lobby.isCreator ? "You created this room: start when " + online.lobby.minPeople + " to " + online.lobby.maxSeats + " people are in."
                                                   : "Waiting for " + online.lobby.creator + " to start."
                            wrapMode: Text.WordWrap
                            color: "#e8f3ec"
                            font.pixelSize: screen.px(0.85)
                        }
                    }
                }
                Text {
                    objectName: "lobbyCasualNotice"
                    Layout.fillWidth: true
                    text: online.casualNotice
                    wrapMode: Text.WordWrap
                    font.pixelSize: screen.px(0.8)
                    color: "#ffe08a"
                    Accessible.role: Accessible.StaticText
                    Accessible.name: text
                }
                Rectangle {
                    id: hostPanel
                    objectName: "hostPanel"
                    visible: screen.hosting
                    Layout.fillWidth: true
                    implicitHeight: hostCol.implicitHeight + screen.gap * 2
                    radius: 6
                    color: "#12402c"
                    activeFocusOnTab: visible || activeFocus  // as the join code's box: the resting place
                    border.color: activeFocus ? "#ffffff" : "#8fe3a7"
                    border.width: activeFocus ? 3 : 1
                    Accessible.role: Accessible.StaticText
                    Accessible.name: online.host.shareText
                    ColumnLayout {
                        id: hostCol
                        anchors.fill: parent
                        anchors.margins: screen.gap
                        spacing: 2
                        Text {
                            objectName: "hostShare"
                            Layout.fillWidth: true
                            text: online.host.shareText
                            textFormat: Text.PlainText
                            wrapMode: Text.WordWrap
                            color: "#e8f3ec"
                            font.pixelSize: screen.px(0.85)
                        }
                        Text {
                            objectName: "hostWords"
                            Layout.fillWidth: true
                            text: online.host.words
                            wrapMode: Text.WordWrap
                            color: "#8fe3a7"
                            font.bold: true
                            font.pixelSize: screen.fs * 1.1
                            Accessible.role: Accessible.StaticText
                            Accessible.name: "Certificate words " + text
                        }
                    }
                }
                Text {
                    objectName: "lobbyHostedNote"
                    visible: text.length > 0
                    Layout.fillWidth: true
                    text: online.hostedNote
                    wrapMode: Text.WordWrap
                    font.pixelSize: screen.px(0.75)
                    color: "#d5e6dc"
                    Accessible.role: Accessible.StaticText
                    Accessible.name: text
                }
            }
        }

        // ---------------- create / join, start / leave: under the thumb (the bottom in portrait)
        ColumnLayout {
            id: left
            objectName: "lobbyActions"
            Layout.alignment: Qt.AlignBottom
            Layout.row: screen.portrait ? 2 : 1
            Layout.column: 0
            Layout.fillWidth: screen.portrait
            Layout.preferredWidth: screen.portrait ? -1 : screen.width * 0.42
            spacing: screen.gap
            GameButton {
                id: createButton
                objectName: "btnCreateRoom"
                visible: !screen.inRoom
                Layout.fillWidth: true
                fs: screen.fs
                primary: true
                text: "Create a room"
                hint: "Open a room; share its join code with " + (online.lobby.minPeople - 1) + " to " + (online.lobby.maxSeats - 1) + " others"
                enabled: !online.busy && !screen.inRoom
                onActivated: online.lobby.createRoom()
            }
            RowLayout {
                visible: !screen.inRoom
                Layout.fillWidth: true
                spacing: screen.gap
                OnlineField {
                    id: codeField
                    objectName: "fieldCode"
                    Layout.fillWidth: true
                    fs: screen.fs
                    label: "Join code"
                    hint: "e.g. QP7TUZ"
                    onAccepted: online.lobby.joinRoom(codeField.text)
                }
                GameButton {
                    objectName: "btnJoinRoom"
                    Layout.alignment: Qt.AlignBottom
                    Layout.preferredWidth: screen.fs * 7
                    fs: screen.fs
                    text: "Join"
                    hint: "Take the next seat in the room with this code"
                    enabled: !online.busy && !screen.inRoom
                    onActivated: online.lobby.joinRoom(codeField.text)
                }
            }
            // leaving and signing out above: the main action, Start, is the lowest
            RowLayout {
                Layout.fillWidth: true
                spacing: screen.gap
                GameButton {
                    id: signOutButton
                    objectName: "btnSignOut"
                    visible: !screen.hosting
                    Layout.fillWidth: true
                    fs: screen.fs
                    text: "Sign out"
                    hint: screen.inRoom ? "Leave the room and sign out of the relay" : "Sign out of the relay; sign in again to play"
                    enabled: !online.busy
                    reason: "Waiting for the relay"
                    onActivated: online.account.signOut()
                }
                GameButton {
                    objectName: "btnLobbyBackToSolo"
                    visible: online.canLeave
                    Layout.fillWidth: true
                    fs: screen.fs
                    text: "Back to solo table"
                    hint: "Return to the solo table; you stay signed in, so coming back is one tap"
                    enabled: !online.busy
                    reason: "Waiting for the relay"
                    onActivated: online.leave()
                }
            }
            RowLayout {
                visible: screen.inRoom
                Layout.fillWidth: true
                spacing: screen.gap
                GameButton {
                    id: startButton
                    objectName: "btnStart"
                    property string designRole: "main"  // under the thumb (layout check)
                    Layout.fillWidth: true
                    fs: screen.fs
                    primary: true
                    text: "Start (" + online.lobby.roster.count + " in)"
                    hint: "Start the session; nobody can join after the start"
                    enabled: online.lobby.canStart && !online.busy
                    reason: online.lobby.startReason
                    onActivated: screen.hosting ? online.host.start() : online.lobby.startRoom()
                }
                GameButton {
                    id: leaveButton
                    objectName: "btnLeaveRoom"
                    Layout.fillWidth: true
                    fs: screen.fs
                    text: screen.hosting ? "Close the table" : "Leave room"
                    hint: screen.hosting ? "Close your table: guests leave with you" : "Leave this room"
                    onActivated: screen.hosting ? online.leave() : online.lobby.leaveRoom()
                }
            }
            Text {
                objectName: "lobbyError"
                Layout.fillWidth: true
                visible: text.length > 0
                text: online.error.length > 0 ? online.error : (screen.inRoom && !online.lobby.canStart ? online.lobby.startReason : "")
                wrapMode: Text.WordWrap
                color: online.error.length > 0 ? "#ffb4a6" : "#ffd98a"
                font.pixelSize: screen.px(0.9)
                Accessible.role: online.error.length > 0 ? Accessible.AlertMessage : Accessible.StaticText
                Accessible.name: text
            }
        }

        // ---------------- right: the roster
        Rectangle {
            id: rosterPanel
            objectName: "roster"
            // portrait: between the room's words and the buttons; sideways: the right column
            Layout.row: screen.portrait ? 1 : 0
            Layout.column: screen.portrait ? 0 : 1
            Layout.rowSpan: screen.portrait ? 1 : 2
            Layout.fillWidth: true
            Layout.fillHeight: true
            Layout.minimumHeight: screen.fs * 8
            radius: 10
            color: "#10251b"
            border.color: "#2f5a45"
            Accessible.role: Accessible.List
            Accessible.name: "Roster: " + online.lobby.roster.count + " of " + online.lobby.maxSeats + " seats"
            ColumnLayout {
                anchors.fill: parent
                anchors.margins: screen.gap
                spacing: screen.gap * 0.5
                Text {
                    Layout.fillWidth: true
                    objectName: "rosterHeading"
                    text: screen.hosting ? online.host.whoIsIn(online.lobby.roster.count, online.lobby.maxSeats)
                                         : "Roster (" + online.lobby.roster.count + "/" + online.lobby.maxSeats + ") — compare the words out loud"
                    color: "#f2c14e"
                    font.bold: true
                    font.pixelSize: screen.fs
                    wrapMode: Text.WordWrap
                }
                ListView {
                    id: rosterList
                    objectName: "rosterList"
                    Layout.fillWidth: true
                    Layout.fillHeight: true
                    clip: true
                    spacing: 4
                    model: online.lobby.roster
                    boundsBehavior: Flickable.StopAtBounds
                    delegate: Rectangle {
                        required property var model
                        width: rosterList.width
                        height: memberCol.implicitHeight + screen.gap
                        radius: 6
                        color: model.you ? "#1f5a3f" : "#133d2b"
                        Accessible.role: Accessible.ListItem
                        Accessible.name: model.label + ", " + model.name
                                         + (model.you ? ", you" : "") + (model.creator ? ", creator" : "")
                        Accessible.description: "Verification words: " + model.words
                        ColumnLayout {
                            id: memberCol
                            anchors.fill: parent
                            anchors.margins: screen.gap * 0.5
                            spacing: 0
                            Text {
                                Layout.fillWidth: true
                                text: model.label + " · " + model.name + (model.you ? " (you)" : "") + (model.creator ? " · creator" : "")
                                color: "#fdf6e3"
                                font.bold: true
                                font.pixelSize: screen.px(0.95)
                                elide: Text.ElideRight
                            }
                            Text {
                                Layout.fillWidth: true
                                text: model.words
                                color: "#8fe3a7"
                                font.family: "DejaVu Sans Mono"
                                font.pixelSize: screen.px(0.9)
                                elide: Text.ElideRight
                            }
                        }
                    }
                    Text {
                        visible: rosterList.count === 0
                        width: rosterList.width
                        text: "Create a room or join one: each member's name and four verification words appear here."
                        wrapMode: Text.WordWrap
                        color: "#9fb8aa"
                        font.pixelSize: screen.px(0.85)
                    }
                }
                Text {
                    Layout.fillWidth: true
                    objectName: "rosterWordsNote"
                    text: screen.hosting ? online.host.rosterWords
                                         : "Each word list comes from that person's session key: if what they read out differs from what you see, do not start. No spectators; nobody joins after the start."
                    wrapMode: Text.WordWrap
                    color: "#cfe3d6"
                    font.pixelSize: screen.px(0.78)
                }
            }
        }
    }
}
