import QtQuick

// The header's status line: balance (counting to its new value in the result moment), hand and
// throw, in words and for screen readers; the solo and the online window show the same one. A
// window away from the table shows its own words instead (``message``, plain or styled text).
Text {
    property real balance: 0        // the balance shown now (it animates)
    property int balanceValue: 0    // the balance itself, for screen readers
    property int hand: 1
    required property int hands     // hands a session has (kernel.values, through the bridge)
    property int throwCount: 0
    required property int throwCap  // the throw cap (kernel.values, through the bridge)
    property string message: ""
    textFormat: Text.StyledText
    color: "#fdf6e3"
    text: message.length > 0 ? message
        : "Balance <b>" + Math.round(balance).toLocaleString(Qt.locale("en_US"), "f", 0)
          + "</b>   ·   Hand <b>" + hand + "/" + hands
          + "</b>   ·   Throw <b>" + throwCount + "/" + throwCap + "</b>"
    Accessible.role: Accessible.StaticText
    Accessible.name: message.length > 0 ? message.replace(/<[^>]*>/g, "")
        : "Balance " + balanceValue + ", hand " + hand + " of " + hands + ", throw " + throwCount
          + " of " + throwCap
}
