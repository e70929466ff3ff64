import QtQuick

// A window follows its bridge's window mode (Standard, Theater, Fullscreen); the control that
// had focus keeps it. Both windows use it: ``WindowMode { window: root; mode: bridge.windowMode }``.
QtObject {
    required property Window window
    required property string mode
    onModeChanged: {
        var keep = window.activeFocusItem;
        if (mode === "fullscreen") window.visibility = Window.FullScreen;
        else if (mode === "theater") window.visibility = Window.Maximized;
        else window.visibility = Window.Windowed;
        Qt.callLater(function() { if (keep) keep.forceActiveFocus(); });
    }
}
