import QtQuick
import QtQuick.Controls.Basic

// A modal card over the table (Help, Paused, the new-session question, Stats, the guide, the
// close question; online Help and the leave question). It takes focus when it opens; Escape
// reaches the window's handler (which closes it through the bridge). On close the caller
// restores focus: the table's, or with giveBackFocus() the control it was opened from.
Popup {
    id: card
    property real fs: 14
    property string title: ""
    property string description: ""
    property color shade: "#c8061a10"  // over the window behind the card
    // The control that had focus when the card opened (kept while cards open on cards).
    property Item returnTo: null
    // Escape and Android's Back, and M (sound on or off), while the card is open: the window's
    // own shortcuts are blocked by the modal card, and only the topmost card's act, so exactly
    // one handler acts.
    signal escaped()
    signal muteToggled()
    Shortcut { sequences: ["Escape", "Back"]; autoRepeat: false; enabled: card.opened; onActivated: card.escaped() }
    Shortcut { sequence: "M"; autoRepeat: false; enabled: card.opened; onActivated: card.muteToggled() }
    modal: true
    focus: true
    closePolicy: Popup.NoAutoClose
    // centred in the window's safe area (its screen's insetTop... : a phone's notch and bars),
    // and kept inside it: a card taller than the safe area is shrunk to fit (Popup's margins)
    readonly property var screen: ApplicationWindow.window
    topMargin: screen && screen.insetTop !== undefined ? screen.insetTop : 0
    bottomMargin: screen && screen.insetBottom !== undefined ? screen.insetBottom : 0
    leftMargin: screen && screen.insetLeft !== undefined ? screen.insetLeft : 0
    rightMargin: screen && screen.insetRight !== undefined ? screen.insetRight : 0
    x: leftMargin + (Overlay.overlay.width - leftMargin - rightMargin - width) / 2
    y: topMargin + (Overlay.overlay.height - topMargin - bottomMargin - height) / 2
    padding: Math.max(6, fs * 0.5)
    Overlay.modal: Rectangle { color: card.shade }
    // The title on the dialog itself (a reader says it when the card opens), not its background.
    // The dialog a reader sees is the popup's own item (the parent of its contentItem, role
    // Dialog): a Popup is no Item, so Accessible attached to it warns at every start and drops
    // the description; attached to that item it is neither.
    Component.onCompleted: {
        var dialog = card.contentItem.parent;
        dialog.Accessible.role = Accessible.Dialog;
        dialog.Accessible.name = Qt.binding(function() { return card.title; });
        dialog.Accessible.description = Qt.binding(function() { return card.description; });
    }
    background: Rectangle {
        radius: card.fs * 0.6
        color: "#123d2b"
        border.color: "#f2c14e"
        border.width: 2
    }
    onAboutToShow: if (!returnTo) returnTo = Overlay.overlay.Window.activeFocusItem
    // Back to where the card was opened from once the window behind is enabled again; else the
    // window's own focus rules pick (Main.qml restores the table's focus).
    function giveBackFocus() {
        // hidden because another screen of the frame covers its own: that screen keeps the keys
        if (card.parent && !card.parent.visible) return;
        var back = returnTo;
        var window = Overlay.overlay.Window;
        returnTo = null;
        Qt.callLater(function() {
            if (back && back.visible && back.enabled) back.forceActiveFocus();
            else window.contentItem.forceActiveFocus();
        });
    }
}
