import QtQuick

// A window's or a card's title: the serif gold heading every screen uses, named for screen
// readers. Each use gives its text and size (font.pixelSize), and wraps or elides as it needs.
Text {
    font.family: "DejaVu Serif"
    font.bold: true
    color: "#f2c14e"
    Accessible.role: Accessible.Heading
    Accessible.name: text
}
