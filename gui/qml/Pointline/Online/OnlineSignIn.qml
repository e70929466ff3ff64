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
    // a phone held sideways: name and password side by side, so the buttons stay in sight
    readonly property bool wide: width > height && height < 500
    readonly property string asking: online.trust.asking
    // a trust question takes focus on its safe answer: a stray Enter never trusts anything
    function focusFirst() {
        if (screen.asking !== "") declineButton.forceActiveFocus(); else nameField.input.forceActiveFocus();
    }
    onAskingChanged: Qt.callLater(focusFirst)

    Flickable {
        anchors.fill: parent
        contentHeight: form.implicitHeight + screen.gap * 2
        clip: true
        boundsBehavior: Flickable.StopAtBounds
        ColumnLayout {
            id: form
            width: Math.min(parent.width - screen.gap * 2, screen.fs * (screen.wide ? 50 : 30))
            x: (parent.width - width) / 2
            y: screen.gap
            spacing: screen.gap
            Heading {
                Layout.fillWidth: true
                text: "Play online"
                font.pixelSize: screen.fs * 1.5
            }
            Text {
                Layout.fillWidth: true
                text: "Sign in to a relay with your account, or sign up for one. " + online.lobby.minPeople + " to " + online.lobby.maxSeats + " people share the same dice; nobody deals."
                wrapMode: Text.WordWrap
                color: "#e8f3ec"
                font.pixelSize: screen.fs * 0.9
            }
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
                        font.pixelSize: screen.fs * 0.9
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
                        font.pixelSize: screen.fs * 0.95
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
            OnlineField {
                id: urlField
                objectName: "fieldRelay"
                Layout.fillWidth: true
                fs: screen.fs
                label: "Relay address"
                hint: "ws://127.0.0.1:8765 (a relay on this computer)"
                text: online.account.relayUrl
                onAccepted: nameField.input.forceActiveFocus()
            }
            GridLayout {
                Layout.fillWidth: true
                columns: screen.wide ? 2 : 1
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
                    onAccepted: if (!online.busy) online.account.signIn(urlField.text, nameField.text, passwordField.text)
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
                font.pixelSize: screen.fs * 0.95
                font.bold: true
                Accessible.role: Accessible.AlertMessage
                Accessible.name: text
            }
            RowLayout {
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
                text: online.account.noRelayText
                wrapMode: Text.WordWrap
                color: "#9fb8aa"
                font.pixelSize: screen.fs * 0.8
            }
        }
    }
}
