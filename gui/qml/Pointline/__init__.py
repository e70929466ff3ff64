"""The Pointline QML module (Main.qml and its components); loaded with loadFromModule."""
