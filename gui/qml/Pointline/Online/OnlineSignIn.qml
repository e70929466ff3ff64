import QtQuick
import QtQuick.Layouts
import QtQuick.Controls.Basic
import Pointline
import Pointline.Online

// Sign in or sign up to a relay: address (local relay by default), name and password.
FocusScope {
    id: screen
    required property OnlineBridge online
    property real fs: 14
    property real gap: 8
    // the smallest text a screen may draw (a phone's 11 pt, OnlineMain.minText): a small
    // text is its share of the base size, never under it
    property real minText: 0
    required property var px  // OnlineMain.px: a share of the type size, never under minText
    // a phone held sideways: name and password side by side, so the buttons stay in sight
    // (and a desktop window): tables nearby on the left, a relay by its address on the right
    readonly property bool wide: width > height && width >= fs * 40
    readonly property string asking: online.trust.asking
    readonly property string nearbyAsking: online.nearby.asking
    // a relay by its address: on a phone under "Advanced" (a table nearby comes first there),
    // shown at once when its certificate question is asked
    readonly property bool relayShown: !online.mobile || advanced.open || screen.asking !== ""
    Component.onCompleted: { online.host.refreshKeptName(); online.nearby.browse(); }
    // a trust question takes focus on its safe answer: a stray Enter never trusts anything
    function focusFirst() {
        if (screen.asking !== "") declineButton.forceActiveFocus();
        // a table's first visit: the first empty field (Enter there joins); else the safe answer
        else if (screen.nearbyAsking === "first" && nameField.text.length === 0) nameField.input.forceActiveFocus();
        else if (screen.nearbyAsking === "first" && passwordField.text.length === 0) passwordField.input.forceActiveFocus();
        else if (screen.nearbyAsking !== "") nearbyDecline.forceActiveFocus();
        else if (online.host.keptName.length > 0) hostButton.forceActiveFocus();
        else nameField.input.forceActiveFocus();
    }
    onAskingChanged: Qt.callLater(focusFirst)
    onNearbyAskingChanged: Qt.callLater(function() {
        focusFirst();
        if (screen.nearbyAsking !== "") screen.ensureVisible(nearbyBox);
    })
    // scroll the form so ``item`` is in sight (the chosen table's question, below the list)
    function ensureVisible(item) {
        var top = item.mapToItem(flick.contentItem, 0, 0).y - screen.gap;
        var bottom = top + item.height + screen.gap * 2;
        var most = Math.max(0, flick.contentHeight - flick.height);
        if (bottom > flick.contentY + flick.height) flick.contentY = Math.min(most, bottom - flick.height);
        if (top < flick.contentY) flick.contentY = Math.max(0, top);
    }

    Flickable {
        id: flick
        anchors.fill: parent
        contentHeight: form.implicitHeight + screen.gap * 2
        // the form grows a layout pass after the question does (longer words wrap to more
        // lines): scroll again once it has, or the answers stay below the screen's edge
        onContentHeightChanged: if (screen.nearbyAsking !== "") Qt.callLater(screen.ensureVisible, nearbyBox)
        clip: true
        boundsBehavior: Flickable.StopAtBounds
        GridLayout {
            id: form
            width: Math.min(parent.width - screen.gap * 2, screen.fs * (screen.wide ? 56 : 30))
            x: (parent.width - width) / 2
            y: screen.gap
            columns: screen.wide ? 2 : 1
            columnSpacing: screen.gap * 2
            rowSpacing: screen.gap
            // landscape: who I am and Host on the left; the tables nearby and a relay by its
            // address on the right, so every button stays in sight
            ColumnLayout {
                objectName: "playerColumn"
                Layout.fillWidth: true
                Layout.preferredWidth: 1
                Layout.alignment: Qt.AlignTop
                spacing: screen.gap
                Heading {
                    Layout.fillWidth: true
                    text: "Play online"
                    font.pixelSize: screen.fs * 1.5
                }
                Text {
                    Layout.fillWidth: true
                    text: "Play with friends in the same room: host a table, or tap one nearby. " + online.lobby.minPeople + " to " + online.lobby.maxSeats + " people share the same dice; nobody deals."
                    wrapMode: Text.WordWrap
                    color: "#e8f3ec"
                    font.pixelSize: screen.px(0.9)
                }
                GridLayout {
                    Layout.fillWidth: true
                    columns: 1
                    columnSpacing: screen.gap
                    rowSpacing: screen.gap
                    OnlineField {
                        id: nameField
                        objectName: "fieldName"
                        Layout.fillWidth: true
                        fs: screen.fs
                        label: "Name"
                        hint: online.account.nameHint
                        onAccepted: passwordField.input.forceActiveFocus()
                    }
                    OnlineField {
                        id: passwordField
                        objectName: "fieldPassword"
                        Layout.fillWidth: true
                        fs: screen.fs
                        label: "Password"
                        hint: online.account.passwordHint
                        secret: true
                        onAccepted: if (!online.busy) {
                            if (screen.nearbyAsking === "first") online.nearby.join(nameField.text, passwordField.text);
                            else online.account.signIn(urlField.text, nameField.text, passwordField.text);
                        }
                    }
                }
                Text {
                    id: errorText
                    objectName: "signinError"
                    Layout.fillWidth: true
                    visible: text.length > 0
                    text: online.error
                    wrapMode: Text.WordWrap
                    color: "#ffb4a6"
                    font.pixelSize: screen.px(0.95)
                    font.bold: true
                    Accessible.role: Accessible.AlertMessage
                    Accessible.name: text
                }
                GameButton {
                    id: hostButton
                    objectName: "btnHost"
                    Layout.fillWidth: true
                    fs: screen.fs
                    primary: true
                    text: online.host.keptName.length > 0 ? "Host a table as " + online.host.keptName : "Host a table"
                    hint: "Open a table on this device; friends on this Wi-Fi find it nearby"
                    enabled: !online.busy && (online.host.keptName.length > 0 || nameField.text.length > 0)
                    reason: online.busy ? "Waiting for the relay" : "Type your player name first"
                    onActivated: online.host.hostTable(nameField.text)
                }
            }
            ColumnLayout {
                objectName: "tablesColumn"
                Accessible.role: Accessible.List
                Accessible.name: online.nearby.listName.replace("{count}", online.nearby.tables.count)
                Layout.fillWidth: true
                Layout.preferredWidth: 1
                Layout.alignment: Qt.AlignTop
                spacing: screen.gap
                Heading {
                    Layout.fillWidth: true
                    text: "Tables nearby"
                    font.pixelSize: screen.fs * 1.1
                }
                Text {
                    objectName: "nearbyEmpty"
                    visible: online.nearby.tables.count === 0
                    Layout.fillWidth: true
                    text: online.nearby.emptyText
                    wrapMode: Text.WordWrap
                    color: "#9fb8aa"
                    font.pixelSize: screen.px(0.85)
                }
                Repeater {
                    objectName: "nearbyList"
                    model: online.nearby.tables
                    delegate: RowLayout {
                        id: nearbyRow
                        required property string key
                        required property string label
                        required property string name
                        required property string host
                        required property bool kept
                        required property int index
                        Layout.fillWidth: true
                        spacing: screen.gap * 0.5
                        Accessible.role: Accessible.ListItem
                        Accessible.name: nearbyRow.label
                        GameButton {
                            objectName: "nearbyTable" + nearbyRow.index
                            Layout.fillWidth: true
                            fs: screen.fs
                            text: nearbyRow.label
                            hint: "Hosted by " + nearbyRow.host + ": join this table"
                            enabled: !online.busy
                            reason: "Waiting for the table"
                            onActivated: online.nearby.choose(nearbyRow.key)
                        }
                        GameButton {
                            // only a kept sign-in can be forgotten; leaving never forgets it
                            objectName: "nearbyForget" + nearbyRow.index
                            visible: nearbyRow.kept
                            fs: screen.px(0.85)
                            text: online.nearby.forgetText
                            hint: online.nearby.forgetHint(nearbyRow.name)
                            enabled: !online.busy
                            reason: "Waiting for the table"
                            onActivated: online.nearby.forgetTable(nearbyRow.key)
                        }
                    }
                }
                Rectangle {
                    id: nearbyBox
                    objectName: "nearbyQuestion"
                    onHeightChanged: if (visible) Qt.callLater(screen.ensureVisible, nearbyBox)
                    visible: screen.nearbyAsking !== ""
                    Layout.fillWidth: true
                    implicitHeight: nearbyCol.implicitHeight + screen.gap * 2
                    radius: 8
                    color: screen.nearbyAsking === "changed" ? "#3a2a10" : "#12402c"
                    border.color: screen.nearbyAsking === "changed" ? "#f2c14e" : "#8fe3a7"
                    border.width: 2
                    Accessible.role: Accessible.Dialog
                    Accessible.name: online.nearby.chosenName
                    ColumnLayout {
                        id: nearbyCol
                        anchors.fill: parent
                        anchors.margins: screen.gap
                        spacing: screen.gap * 0.6
                        Text {
                            Layout.fillWidth: true
                            text: online.nearby.chosenName
                            font.bold: true
                            font.pixelSize: screen.fs * 1.05
                            color: "#f2c14e"
                            wrapMode: Text.WordWrap
                            Accessible.role: Accessible.Heading
                            Accessible.name: text
                        }
                        Text {
                            objectName: "nearbyQuestionText"
                            Layout.fillWidth: true
                            text: online.nearby.question
                            wrapMode: Text.WordWrap
                            color: "#fdf6e3"
                            font.pixelSize: screen.px(0.9)
                            Accessible.role: Accessible.StaticText
                            Accessible.name: text
                        }
                        Text {
                            objectName: "nearbyWords"
                            Layout.fillWidth: true
                            text: online.nearby.words
                            wrapMode: Text.WordWrap
                            color: "#8fe3a7"
                            font.bold: true
                            font.pixelSize: screen.fs * 1.1
                            Accessible.role: Accessible.StaticText
                            Accessible.name: "Certificate words " + text
                        }
                        Text {
                            visible: screen.nearbyAsking === "first"
                            Layout.fillWidth: true
                            text: "Type a name and password (an account on this table), then Join."
                            wrapMode: Text.WordWrap
                            color: "#d5e6dc"
                            font.pixelSize: screen.px(0.8)
                        }
                        GridLayout {
                            Layout.fillWidth: true
                            columns: screen.width > screen.fs * 34 ? 2 : 1
                            columnSpacing: screen.gap
                            rowSpacing: screen.gap * 0.6
                            GameButton {
                                id: nearbyDecline
                                objectName: "btnNearbyDecline"
                                Layout.fillWidth: true
                                fs: screen.fs
                                text: "Don't join"
                                hint: "Trust nothing and join nothing"
                                onActivated: online.nearby.decline()
                            }
                            GameButton {
                                objectName: "btnNearbyGo"
                                Layout.fillWidth: true
                                fs: screen.fs
                                primary: true
                                text: screen.nearbyAsking === "changed" ? "Trust the new certificate"
                                    : screen.nearbyAsking === "relay" ? "Use this relay" : "Join"
                                hint: screen.nearbyAsking === "changed" ? "The host's screen shows the same words: trust the new certificate"
                                    : screen.nearbyAsking === "relay" ? "Put its address in the sign-in form, then sign in"
                                    : "Sign up (or sign in) on this table and take a seat"
                                enabled: !online.busy
                                reason: "Waiting for the table"
                                onActivated: screen.nearbyAsking === "changed" ? online.nearby.trustNew()
                                    : screen.nearbyAsking === "relay" ? online.nearby.useRelay()
                                    : online.nearby.join(nameField.text, passwordField.text)
                            }
                        }
                    }
                }
                OnlineAdvanced {
                    id: advanced
                    objectName: "btnAdvancedRelay"
                    visible: online.mobile && screen.nearbyAsking === "" && screen.asking === ""
                    fs: screen.fs
                    texts: online.seatTable.texts
                    label: "advancedRelay"
                    hintKey: "advancedRelayHint"
                }
                ColumnLayout {
                    // a relay by its address: hidden while a table nearby is chosen
                    objectName: "relaySection"
                    visible: screen.nearbyAsking === ""
                    Layout.fillWidth: true
                    spacing: screen.gap
                    Rectangle {
                        id: trustBox
                        objectName: "trustQuestion"
                        visible: screen.asking !== ""
                        Layout.fillWidth: true
                        implicitHeight: trustCol.implicitHeight + screen.gap * 2
                        radius: 8
                        color: "#3a2a10"
                        border.color: "#f2c14e"
                        border.width: 2
                        Accessible.role: Accessible.Dialog
                        Accessible.name: screen.asking === "key" ? "The relay's key changed" : "Trust this relay's certificate?"
                        ColumnLayout {
                            id: trustCol
                            anchors.fill: parent
                            anchors.margins: screen.gap
                            spacing: screen.gap * 0.6
                            Text {
                                Layout.fillWidth: true
                                text: screen.asking === "key" ? "Warning: the relay's key changed" : "Trust this relay's certificate?"
                                font.bold: true
                                font.pixelSize: screen.fs * 1.05
                                color: "#f2c14e"
                                wrapMode: Text.WordWrap
                                Accessible.role: Accessible.Heading
                                Accessible.name: text
                            }
                            Text {
                                objectName: "trustText"
                                Layout.fillWidth: true
                                text: online.trust.text
                                wrapMode: Text.WordWrap
                                color: "#fdf6e3"
                                font.pixelSize: screen.px(0.9)
                                Accessible.role: Accessible.StaticText
                                Accessible.name: text
                            }
                            Text {
                                objectName: "trustFingerprint"
                                visible: text.length > 0
                                Layout.fillWidth: true
                                text: online.trust.fingerprint
                                wrapMode: Text.WordWrap
                                color: "#8fe3a7"
                                font.family: "DejaVu Sans Mono"
                                font.pixelSize: screen.px(0.95)
                                Accessible.role: Accessible.StaticText
                                Accessible.name: "Fingerprint " + text
                            }
                            GridLayout {
                                Layout.fillWidth: true
                                columns: screen.width > screen.fs * 34 ? 2 : 1
                                columnSpacing: screen.gap
                                rowSpacing: screen.gap * 0.6
                                GameButton {
                                    id: declineButton
                                    objectName: "btnDeclineTrust"
                                    Layout.fillWidth: true
                                    fs: screen.fs
                                    text: screen.asking === "key" ? "Cancel" : "Don't trust it"
                                    hint: "Trust nothing and sign in to nothing"
                                    onActivated: online.account.declineTrust()
                                }
                                GameButton {
                                    objectName: "btnTrust"
                                    Layout.fillWidth: true
                                    fs: screen.fs
                                    primary: true
                                    text: screen.asking === "key" ? "Accept the new key" : "Trust this relay's certificate"
                                    hint: screen.asking === "key" ? "Its owner said the key changed: play on with it"
                                                                  : "The fingerprint matches what its owner read out: trust it on this device"
                                    onActivated: screen.asking === "key" ? online.account.acceptRelayKey() : online.account.trustCertificate()
                                }
                            }
                        }
                    }
                    Heading {
                        Layout.fillWidth: true
                        visible: !online.mobile
                        text: "Or a relay by its address"
                        font.pixelSize: screen.fs * 1.1
                    }
                    OnlineField {
                        id: urlField
                        objectName: "fieldRelay"
                        visible: screen.relayShown
                        Layout.fillWidth: true
                        fs: screen.fs
                        label: "Relay address"
                        hint: "ws://127.0.0.1:8765 (a relay on this computer)"
                        text: online.account.relayUrl
                        onAccepted: if (!online.busy) online.account.signIn(urlField.text, nameField.text, passwordField.text)
                    }
                    Text {
                        objectName: "relayWarning"
                        visible: text.length > 0 && screen.relayShown
                        Layout.fillWidth: true
                        text: online.account.warningFor(urlField.text)
                        wrapMode: Text.WordWrap
                        color: "#ffd27a"
                        font.pixelSize: screen.px(0.8)
                        Accessible.role: Accessible.StaticText
                        Accessible.name: text
                    }
                    RowLayout {
                        visible: screen.relayShown
                        Layout.fillWidth: true
                        spacing: screen.gap
                        GameButton {
                            objectName: "btnSignIn"
                            Layout.fillWidth: true
                            fs: screen.fs
                            primary: true
                            text: online.busy ? "Signing in…" : "Sign in"
                            hint: "Sign in to the relay with this name and password"
                            enabled: !online.busy && screen.asking === ""
                            reason: "Waiting for the relay"
                            onActivated: online.account.signIn(urlField.text, nameField.text, passwordField.text)
                        }
                        GameButton {
                            objectName: "btnSignUp"
                            Layout.fillWidth: true
                            fs: screen.fs
                            text: "Sign up"
                            hint: "Create this account on the relay (the password is stored hashed)"
                            enabled: !online.busy && screen.asking === ""
                            reason: "Waiting for the relay"
                            onActivated: online.account.signUp(urlField.text, nameField.text, passwordField.text)
                        }
                    }
                    GameButton {
                        objectName: "btnSignInBackToSolo"
                        visible: online.canLeave
                        Layout.fillWidth: true
                        fs: screen.fs
                        text: "Back to solo table"
                        hint: "Close online play and return to the solo table"
                        enabled: !online.busy
                        reason: "Waiting for the relay"
                        onActivated: online.leave()
                    }
                    Text {
                        Layout.fillWidth: true
                        objectName: "noRelayText"
                        visible: screen.relayShown
                        text: online.account.noRelayText
                        wrapMode: Text.WordWrap
                        color: "#9fb8aa"
                        font.pixelSize: screen.px(0.8)
                    }
                }
            }
        }
    }
}
