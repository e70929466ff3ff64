import QtQuick
import QtQuick.Layouts

// The sound button of every screen: ``owner`` is the window's bridge (muted, mobile,
// toggleMute()), the solo table's or the online one.
GameButton {
    required property var owner
    objectName: "btnMute"
    Layout.fillWidth: true
    text: (owner.muted ? "Turn sound on" : "Mute sound") + (owner.mobile ? "" : " (M)")
    hint: owner.muted ? "Turn sounds on" : "Mute sounds"
    onActivated: owner.toggleMute()
}
