import QtQuick
import QtQuick.Controls.Basic

// A modal card over the table (Help, Paused, the new-session question). It takes focus when it
// opens; Escape reaches the window's handler (which closes it through the bridge); the caller
// restores focus on close.
Popup {
    id: card
    property real fs: 14
    property string title: ""
    // Escape and Android's Back while the card is open (the window's own shortcuts are blocked
    // by the modal card, so exactly one handler acts).
    signal escaped()
    Shortcut { sequences: ["Escape", "Back"]; enabled: card.opened; onActivated: card.escaped() }
    modal: true
    focus: true
    closePolicy: Popup.NoAutoClose
    anchors.centerIn: Overlay.overlay
    padding: Math.max(6, fs * 0.5)
    Overlay.modal: Rectangle { color: "#c8061a10" }
    background: Rectangle {
        Accessible.role: Accessible.Dialog
        Accessible.name: card.title
        radius: card.fs * 0.6
        color: "#123d2b"
        border.color: "#f2c14e"
        border.width: 2
    }
}
