import QtQuick
import QtQuick.Layouts

// The chip selector: one button per chip value the table publishes. Tab reaches each chip, Enter/Space/tap selects it; Space
// on the table and a tap on a line then place the selected chip (all of it, or nothing).
// ``vertical``: one above the other (a phone on its side: the rail at the left edge).
GridLayout {
    id: selector
    property var table: null
    property real fs: 13
    property bool vertical: false
    // the word "Chip" before the chips (a short rail leaves it out: the chips say their values)
    property bool labelShown: true
    columns: vertical ? 1 : 4
    rowSpacing: vertical && !labelShown ? 4 : fs * 0.4
    columnSpacing: fs * 0.4
    Accessible.role: Accessible.Grouping
    Accessible.name: "Chip value"
    Text {
        Layout.alignment: Qt.AlignHCenter
        visible: selector.labelShown
        text: "Chip"
        font.pixelSize: selector.fs * 0.9
        color: "#e8f3ec"
        Accessible.ignored: true
    }
    // The chips of gui/betting.py CHIP_VALUES, as the table publishes them; explicit items (not
    // a Repeater), so each is a child with its own name ("chip" + value) for tests and tools.
    component ChipButton: GameButton {
        required property int value
        objectName: "chip" + value
        Layout.fillWidth: true
        fs: selector.fs
        // the rail (a phone on its side) stacks the three under the drawer and the menu: each
        // keeps the 48 px a thumb needs, not more, at a larger system text size too
        implicitHeight: selector.vertical ? 48 : Math.max(48, fs * 2.9)
        text: value
        primary: selector.table.chip === value
        hint: "Use " + value + " chips"
        // A tap or click picks the chip and leaves focus on the table (Space then places it);
        // Tab still reaches each chip.
        focusPolicy: Qt.TabFocus
        // A toggle button that reports pressed or not (issue 40): set on the Button itself, since
        // Accessible.checked on a Button that is not checkable is ignored. Picking a chip never
        // unpicks it; the table's chip decides which one is pressed.
        checkable: true
        checked: primary
        onToggled: if (!checked) toggle()  // pressed again: stays pressed (the binding is kept)
        Accessible.name: "Chip " + value
        onActivated: selector.table.selectChip(value)
    }
    ChipButton { value: selector.table.chipValues[0] }
    ChipButton { value: selector.table.chipValues[1] }
    ChipButton { value: selector.table.chipValues[2] }
}
