import QtQuick
import QtQuick.Controls.Basic

// The one window of the app (issue 38): every screen is inside it. The solo table (Main.qml)
// is the base screen; a replay (Pointline.Replay's ReplayScreen) or the online screens
// (Pointline.Online's OnlineMain) cover the screen that opened them, and leaving them shows that
// screen again as it was (its state is kept, never reloaded). Only the screen on top takes keys.
// The platform's file dialog is the only other window, and only while it is open.
// Every announcement of the app goes through announce(text): its channel is decided here.
ApplicationWindow {
    id: frame
    property var bridge: null   // the solo table (TableBridge), or null (pointline replay FILE)
    property var online: null   // the online app (OnlineBridge) while its screens are shown
    property var replay: null   // the replay (ReplayBridge) being watched, on top of all
    // the window's shell (gui/shell.py): insets, window mode, sound, Help, the pause; every
    // screen shares it, so a mode or the sound chosen on one screen holds on every other
    property var shell: null
    width: 1280
    height: 720
    visible: true
    color: "#0b2e20"
    // the screen on top: a replay covers what opened it (solo's Stats or the online results)
    readonly property string screen: replay ? "replay" : online ? "online" : "solo"
    // whose close question counts when the window closes: the screen on top, or under a
    // replay the screen that opened it (the replay then leaves, so the question shows)
    readonly property string asking: online ? "online" : bridge ? "solo" : ""
    title: screen === "replay" ? "Pointline Table — " + replay.texts.title
         : screen === "online" ? "Pointline Table — online" : "Pointline Table"
    // the solo table's type size (tests and the layout check read it on the window)
    readonly property real fs: Math.max(12, Math.min(34, Math.min(width / 70, height / 30)))
    readonly property string windowMode: shell ? shell.windowMode : "standard"
    // the safe area (a phone's notch and bars, or faked ones in tests), the shell's: cards
    // (TablePopup) and the replay keep inside it
    readonly property var fakeInsets: shell && shell.insets ? shell.insets : ({})
    readonly property real insetTop: Math.max(SafeArea.margins.top, fakeInsets.top || 0)
    readonly property real insetBottom: Math.max(SafeArea.margins.bottom, fakeInsets.bottom || 0)
    readonly property real insetLeft: Math.max(SafeArea.margins.left, fakeInsets.left || 0)
    readonly property real insetRight: Math.max(SafeArea.margins.right, fakeInsets.right || 0)

    // The close question, one for the window (the shell's, gui/close_question.py): the screen
    // that counts (``asking``) asks first (solo: a session in play; online: guests at my table,
    // or a session I sit in); a replay on top leaves so the question shows. Closing online
    // after all leaves the table first (a departure, the host's table closed). CloseAsk.qml
    // shows the question; its Close the app approves, and the window closes.
    onClosing: function(close) {
        var question = frame.shell ? frame.shell.closeQuestion : null;
        if (!frame.asking || !question) return;
        if (question.asked || question.ask(frame.asking)) {
            close.accepted = false;
            if (frame.replay) frame.replay.leave();
            return;
        }
        if (frame.asking === "online") frame.online.windowClosed();
    }
    Connections {
        target: frame.shell ? frame.shell.closeQuestion : null
        function onApproved() { frame.close(); }
    }

    // Window modes follow the shell (the session and the focus are kept).
    WindowMode { window: frame; mode: frame.windowMode }

    // The one announcement call: Announcer.qml decides the channel (on Linux a Notification
    // that shows, which Orca 43 speaks; elsewhere Accessible.announce), one per change (issue 40).
    // A draft still waiting there gives way to a newer draft (the shell knows a draft's words).
    function announce(text) {
        announcer.say(text, frame.shell ? frame.shell.replaceable(text) : false);
    }
    // A screen about to take the focus holds the words until it has (Announcer.hold).
    function holdWords() { announcer.hold(); }
    function releaseWords() { announcer.release(); }
    Announcer { id: announcer }
    Connections {
        target: frame.shell
        function onWordsDropped() { announcer.drop(); }  // stale words still waiting
    }

    // The keyboard comes back to the window after any dialog (a native file dialog under X with
    // no window manager leaves X's focus on the root window): see gui/frame.py.
    function takeKeyboard() {
        frame.requestActivate();
        var f = frame.activeFocusItem;
        if (!f || f === frame.contentItem) {
            var top = frame.topScreen();
            if (top && top.focusFirst) top.focusFirst();
        }
    }

    // Each screen is created when its bridge arrives and destroyed when it goes (a required
    // property: set at creation, so no binding ever reads a screen's missing bridge).
    function place(loader, url, name, value) {
        if (value && loader.item) {
            loader.item[name] = value;  // another bridge on the same screen (tests swap them)
        } else if (value) {
            var props = {};
            props[name] = value;
            loader.setSource(url, props);
        } else {
            loader.source = "";
        }
    }
    onBridgeChanged: place(soloScreen, "Main.qml", "bridge", bridge)
    onOnlineChanged: place(onlineScreen, "Online/OnlineMain.qml", "online", online)
    onReplayChanged: place(replayScreen, "Replay/ReplayScreen.qml", "replay", replay)
    Component.onCompleted: {
        place(soloScreen, "Main.qml", "bridge", bridge);
        place(onlineScreen, "Online/OnlineMain.qml", "online", online);
        place(replayScreen, "Replay/ReplayScreen.qml", "replay", replay);
    }
    function topScreen() {
        return frame.screen === "replay" ? replayScreen.item
             : frame.screen === "online" ? onlineScreen.item : soloScreen.item;
    }
    // A button was clicked or tapped (GameButton): it never keeps the focus, the screen on top
    // puts it where its keys belong (the focus policy, one place).
    function pointerUsed(button) {
        var top = frame.topScreen();
        if (top && typeof top.pointerUsed === "function") top.pointerUsed(button);
    }
    Loader {
        id: soloScreen
        objectName: "soloScreen"
        anchors.fill: parent
        visible: frame.screen === "solo"
        onLoaded: item.onTop = Qt.binding(function() { return frame.screen === "solo"; })
    }
    Loader {
        id: onlineScreen
        objectName: "onlineScreen"
        anchors.fill: parent
        visible: frame.screen === "online"
        // loaded by URL: the solo table never compiles the online module (nor imports net)
        onLoaded: item.onTop = Qt.binding(function() { return frame.screen === "online"; })
    }
    Loader {
        id: replayScreen
        objectName: "replayScreen"
        anchors.fill: parent
        visible: frame.screen === "replay"
    }
    // A screen shown again (after a replay or online) takes the focus back to its first control.
    // It is said too (the window's title names the screen), through the one announcement call.
    onScreenChanged: Qt.callLater(function() {
        var top = frame.topScreen();
        if (top && top.focusFirst) top.focusFirst();
        frame.announce(frame.title);
    })
}
