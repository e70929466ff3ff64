import QtQuick
import QtQuick.Dialogs

// The desktop's file picker for a replay: Qt's own FileDialog (native where the platform has
// one). The chosen file goes to Extras.watchFile; Python decides what it is.
FileDialog {
    id: picker
    objectName: "replayPicker"
    property var extras: null
    title: extras ? extras.openLabel : ""
    fileMode: FileDialog.OpenFile
    nameFilters: extras ? extras.openFilters : []
    onAccepted: if (extras) extras.watchFile(selectedFile.toString())
}
