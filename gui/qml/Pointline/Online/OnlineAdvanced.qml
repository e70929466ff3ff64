import QtQuick
import QtQuick.Layouts
import Pointline

// A phone's "Advanced" disclosure (issue 39): relay addresses and file paths wait under it.
// Its words are the words module's (gui/texts.py: ``label`` and ``hint`` are keys there); a
// screen reader hears a toggle button, pressed when open.
GameButton {
    id: disclosure
    property bool open: false
    property var texts: ({})
    property string label: ""
    property string hintKey: ""
    Layout.fillWidth: true
    text: (texts[label] || "") + " " + (open ? texts.advancedOpen : texts.advancedClosed)
    hint: texts[hintKey] || ""
    Accessible.name: texts[label] || ""
    Accessible.checkable: true
    Accessible.checked: open
    onActivated: open = !open
}
