import QtQuick
import QtQuick.Layouts
import Pointline

// A GameButton for the online screens: at least 48 x 48 px, a thumb's target on a phone.
GameButton {
    implicitHeight: Math.max(48, fs * 2.9)
    implicitWidth: 48
    Layout.minimumWidth: 48
    Layout.minimumHeight: 48
}
