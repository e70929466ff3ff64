import QtQuick
import QtQuick.Layouts
import QtQuick.Controls.Basic
import Pointline

// Sign in or sign up to a relay: address (local relay by default), name and password.
FocusScope {
    id: screen
    property real fs: 14
    property real gap: 8
    // a phone held sideways: name and password side by side, so the buttons stay in sight
    readonly property bool wide: width > height && height < 500
    function focusFirst() { nameField.input.forceActiveFocus(); }

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
            Text {
                Layout.fillWidth: true
                text: "Play online"
                font.family: "DejaVu Serif"
                font.pixelSize: screen.fs * 1.5
                font.bold: true
                color: "#f2c14e"
                Accessible.role: Accessible.Heading
                Accessible.name: text
            }
            Text {
                Layout.fillWidth: true
                text: "Sign in to a relay with your account, or sign up for one. " + online.minPeople + " to " + online.maxSeats + " people share the same dice; nobody deals."
                wrapMode: Text.WordWrap
                color: "#e8f3ec"
                font.pixelSize: screen.fs * 0.9
            }
            OnlineField {
                id: urlField
                objectName: "fieldRelay"
                Layout.fillWidth: true
                fs: screen.fs
                label: "Relay address"
                hint: "ws://127.0.0.1:8765 (a relay on this computer)"
                text: online.relayUrl
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
                    hint: online.nameHint
                    onAccepted: passwordField.input.forceActiveFocus()
                }
                OnlineField {
                    id: passwordField
                    objectName: "fieldPassword"
                    Layout.fillWidth: true
                    fs: screen.fs
                    label: "Password"
                    hint: online.passwordHint
                    secret: true
                    onAccepted: if (!online.busy) online.signIn(urlField.text, nameField.text, passwordField.text)
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
                    enabled: !online.busy
                    reason: "Waiting for the relay"
                    onActivated: online.signIn(urlField.text, nameField.text, passwordField.text)
                }
                GameButton {
                    objectName: "btnSignUp"
                    Layout.fillWidth: true
                    fs: screen.fs
                    text: "Sign up"
                    hint: "Create this account on the relay (the password is stored hashed)"
                    enabled: !online.busy
                    reason: "Waiting for the relay"
                    onActivated: online.signUp(urlField.text, nameField.text, passwordField.text)
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
                text: online.noRelayText
                wrapMode: Text.WordWrap
                color: "#9fb8aa"
                font.pixelSize: screen.fs * 0.8
            }
        }
    }
}
