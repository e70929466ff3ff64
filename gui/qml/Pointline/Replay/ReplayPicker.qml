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
    // it opens in the folder where the app saves sessions (issue 38, finding 7)
    currentFolder: extras ? extras.savedFolder : ""
    // Closed either way, the one window takes the keyboard back: under X with no window manager
    // the focus was left on the root window, and no key worked until a click (finding 5).
    function giveKeysBack() {
        if (extras) extras.dialogClosed();
    }
    onAccepted: {
        if (extras) extras.watchFile(selectedFile.toString());
        giveKeysBack();
    }
    onRejected: giveKeysBack()
}
