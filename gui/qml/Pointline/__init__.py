"""The Pointline QML module (Frame.qml, the one window, and its screens and components);
loaded with loadFromModule."""
