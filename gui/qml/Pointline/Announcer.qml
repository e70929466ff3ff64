import QtQuick

// The one channel the app speaks to screen readers through (issue 40): say(text) once per change.
// On Linux (AT-SPI) a new item of role Notification, named with the text, becomes visible: every
// Orca speaks that (Orca 43, Debian 12's, has no listener for object:announcement). Each text gets
// its own item, so a reader that asks for the name late still reads that change's words, never a
// later one's. Elsewhere (macOS, Windows, Android, iOS) Accessible.announce() is the channel.
// Exactly one of the two per change, never both.
Item {
    id: announcer
    objectName: "announcer"
    width: 1
    height: 1
    // The items already said stay a while (a reader may still be asking for their names), then go.
    property int keep: 12
    readonly property bool atspi: Qt.platform.os === "linux"
    property int said: 0  // how many changes went out (for tests)
    property string last: ""

    Component {
        id: notice
        Item {
            property string words: ""
            visible: false
            width: 1
            height: 1
            Accessible.role: Accessible.Notification
            Accessible.name: words
        }
    }
    Text {
        id: channel  // the announce() channel: a quiet, invisible text
        visible: false
        text: announcer.atspi ? "" : announcer.last
        Accessible.role: Accessible.StaticText
        Accessible.name: text  // on Linux empty: its changes would be events no reader hears
    }

    // Said a moment after the burst of changes that came with it (a throw's buttons, lines and
    // history; a whole new screen online): Orca 43 drops a Notification that waits behind more
    // than 50 events (its "flood"), and prunes one queued before a focus change in a flood. So
    // the words go out once the app has settled, all of them, in the order they came; but a
    // replaceable change (a draft: quick Space presses) still waiting gives way to a newer one
    // of its kind, said where the newer one came. Nothing else is ever replaced (a throw, an
    // outcome, a balance, a refused key's reason are each said); only words left stale by a
    // screen the player has left at once are dropped, all of them (drop).
    property var pending: []  // [{ text, replaceable }], oldest first
    property int replaced: 0  // how many waiting words gave way to newer ones (for tests)
    property int dropped: 0  // how many waiting words were dropped as stale (for tests)
    readonly property bool settling: settle.running || held.running || holding.running  // words wait
    Timer {
        id: settle
        interval: 250
        onTriggered: announcer.flush()
    }
    // A focus move is the end of a burst (a new screen takes the focus once it is built; a card
    // opens or closes), and in a flood Orca 43 skips a Notification's showing event unless it
    // comes from the focused object, and prunes every one still queued when a focus event comes
    // in. So words wait `quiet` ms after the last focus move: they are queued after the focus
    // event, once Orca has had time to work through the burst (online the session's first
    // words come with the whole table screen and were lost on a loaded machine).
    // A screen that is about to take the focus holds the words until it has (hold, release):
    // the session's first words are said with the table screen, before its focus event.
    property int quiet: 800
    Timer {
        id: held
        interval: announcer.quiet
        onTriggered: if (announcer.pending.length > 0 && !settle.running) announcer.flush()
    }
    Connections {
        target: announcer.Window.window
        function onActiveFocusItemChanged() { held.restart(); }
    }
    Timer {
        id: holding  // a hold never keeps words for ever: a release that never comes
        interval: 3000
        onTriggered: held.restart()
    }
    function hold() {
        holding.restart();
    }
    function release() {
        holding.stop();
        held.restart();
    }
    // say(text, replaceable): `replaceable` words still waiting give way to newer replaceable
    // words (the frame decides which: Frame.announce).
    function say(text, replaceable) {
        if (!text)
            return;
        var waiting = announcer.pending;
        if (replaceable) {
            var kept = waiting.filter(function(p) { return !p.replaceable; });
            announcer.replaced += waiting.length - kept.length;
            waiting = kept;
        }
        waiting.push({ text: text, replaceable: !!replaceable });
        announcer.pending = waiting;
        if (!settle.running)
            settle.start();
    }
    // The words still waiting are stale (a screen left at once: Shell.drop_waiting_words).
    function drop() {
        announcer.dropped += announcer.pending.length;
        announcer.pending = [];
    }
    function flush() {
        if (held.running || holding.running)
            return;  // the held timer flushes when the focus has kept still long enough
        var waiting = announcer.pending;
        announcer.pending = [];
        for (var i = 0; i < waiting.length; ++i)
            announcer.speak(waiting[i].text);
    }
    function speak(text) {
        announcer.last = text;
        announcer.said += 1;
        if (!announcer.atspi) {
            channel.Accessible.announce(text);
            return;
        }
        var items = [];
        for (var i = 0; i < announcer.children.length; ++i)
            if (announcer.children[i] !== channel) {
                items.push(announcer.children[i]);
                announcer.children[i].visible = false;  // hiding is not spoken
            }
        for (var j = 0; j < items.length - announcer.keep; ++j)
            items[j].destroy();
        var item = notice.createObject(announcer, { words: text });
        item.visible = true;
    }
}
