import QtQuick
import QtQuick.Controls.Basic
import QtQuick.Layouts

// The one button type: legal now or disabled and out of the Tab chain. With ``actionName`` and
// ``table`` set, the table's ``legal`` map decides whether it is on (the kernel's verdict).
// The focus policy (issue 38, Help and the README): a button takes the focus by Tab, never by a
// click or a tap, so Enter keeps its meaning (Confirm, Roll, the question asked); a Tab-focused
// button takes Enter and Space; after a click the screen puts the focus back where its keys
// belong (the frame's pointerUsed: the table, or the card that is open).
Button {
    id: control
    readonly property bool tableControl: true
    property string actionName: ""
    property var table: null
    property string hint: ""
    property real fs: 13
    property bool primary: false
    property string reason: actionName && table ? (table.reasons[actionName] || "") : ""
    signal activated()

    enabled: actionName && table ? table.legal[actionName] === true : true
    focusPolicy: Qt.TabFocus
    activeFocusOnTab: enabled || activeFocus  // dropped once focus has left (Qt refuses it while focused)
    implicitHeight: Math.max(48, fs * 2.9)
    implicitWidth: 48
    // never under a thumb's 48 x 48 px, even when a layout squeezes it
    Layout.minimumWidth: 48
    Layout.minimumHeight: 48
    padding: 4
    font.pixelSize: fs
    font.bold: true
    // Space on a Tab-focused button clicks it too: only a pointer's click gives the keys back
    property bool byKey: false
    Keys.onPressed: function(event) { if (event.key === Qt.Key_Space) control.byKey = true; event.accepted = false; }
    onClicked: {
        var pointer = !control.byKey;
        control.byKey = false;
        control.activated();
        var frame = control.Window.window;
        if (pointer && frame && typeof frame.pointerUsed === "function") frame.pointerUsed(control);
    }
    // A dimmed button's reason, shown after the platform's tool-tip delay while a pointer rests
    // on it, or at once when tapped (the table's area behind the buttons sets ``pointed``).
    property bool pointed: false
    readonly property bool reasonShown: reasonTip.item !== null && reasonTip.item.visible
    Loader {
        id: reasonTip
        active: control.pointed && !control.enabled && control.reason.length > 0
        // opened once made: the platform's delay applies (a tip made visible is shown at once)
        onLoaded: item.open()
        sourceComponent: ToolTip {
            objectName: "reasonTip"
            parent: control
            delay: Qt.styleHints.mousePressAndHoldInterval
            text: control.reason
            font.pixelSize: Math.max(12, control.fs * 0.8)
        }
    }
    // A held key's repeats never get here (gui/keys.py drops them for every window).
    Keys.onReturnPressed: if (enabled) control.activated()
    Keys.onEnterPressed: if (enabled) control.activated()
    // Hidden or turned off, it gives up the focus and its place as its scope's focus (else a
    // FocusScope such as the table would hand the focus back to it): the scope takes it.
    function giveUpFocus() { if ((!visible || !enabled) && focus) focus = false }
    onVisibleChanged: giveUpFocus()
    onEnabledChanged: giveUpFocus()

    Accessible.role: Accessible.Button
    Accessible.name: text
    Accessible.description: enabled ? hint : reason

    contentItem: Text {
        text: control.text
        font: control.font
        color: control.enabled ? (control.primary ? "#1b1300" : "#fdf6e3") : "#93a89c"
        horizontalAlignment: Text.AlignHCenter
        verticalAlignment: Text.AlignVCenter
        wrapMode: Text.WordWrap
        maximumLineCount: 3
        // A long label in a narrow column shrinks a little rather than being cut.
        fontSizeMode: Text.Fit
        minimumPixelSize: Math.max(11, control.fs * 0.7)
        elide: Text.ElideRight
    }
    background: Rectangle {
        radius: 8
        // The focus ring: 3 px white inside a dark 2 px rim, so it reads on every colour here.
        Rectangle {
            anchors.fill: parent
            anchors.margins: -4
            radius: parent.radius + 4
            visible: control.activeFocus
            color: "transparent"
            border.width: 2
            border.color: "#06130d"
        }
        color: !control.enabled ? "#1d3a2c"
             : control.primary ? (control.down ? "#c99a1e" : "#f2c14e")
             : (control.down ? "#2f6b4c" : "#245c40")
        border.width: control.activeFocus ? 3 : 1
        border.color: control.activeFocus ? "#ffffff" : (control.enabled ? "#7fb89a" : "#35584a")
    }
}
