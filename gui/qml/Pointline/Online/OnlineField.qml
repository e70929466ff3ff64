import QtQuick
import QtQuick.Layouts
import QtQuick.Controls.Basic

// A labelled text field for the sign-in and lobby screens (48 px target, accessible name).
ColumnLayout {
    id: field
    property alias text: input.text
    property alias input: input
    property string label: ""
    property string hint: ""
    property bool secret: false
    property real fs: 14
    signal accepted()
    spacing: 2
    Text {
        text: field.label
        color: "#fdf6e3"
        font.pixelSize: field.fs * 0.9
        font.bold: true
        Layout.fillWidth: true
        elide: Text.ElideRight
    }
    TextField {
        id: input
        objectName: field.objectName + "Input"
        Layout.fillWidth: true
        implicitHeight: Math.max(48, field.fs * 2.6)
        font.pixelSize: field.fs
        echoMode: field.secret ? TextInput.Password : TextInput.Normal
        color: "#1b1300"
        selectByMouse: true
        activeFocusOnTab: true
        placeholderText: field.hint
        // the hint read at 4.5:1 at least on the field's cream (Basic's grey was under 3:1)
        placeholderTextColor: "#5e5440"
        Accessible.role: Accessible.EditableText
        Accessible.name: field.label
        Accessible.description: field.hint
        Accessible.passwordEdit: field.secret
        onAccepted: field.accepted()
        background: Rectangle {
            radius: 6
            color: "#fdf6e3"
            border.width: input.activeFocus ? 3 : 1
            border.color: input.activeFocus ? "#f2c14e" : "#7fb89a"
        }
    }
}
