"""A small org.freedesktop.ScreenSaver service on a private session bus: the far end of the
idle-inhibition protocol (the freedesktop "Idle Inhibition Service" draft, as KDE's and GNOME's
screen savers serve it), run as its own process by tests/gui/test_gui_awake.py.

    python tests/gui/screensaver_service.py ADDRESS LOG

It owns the name on the bus at ADDRESS, answers ``Inhibit(ss) -> u`` with a fresh cookie and
``UnInhibit(u)``, checks each call's signature as GDBus and QtDBus services do (a call with the
wrong argument types gets the standard InvalidArgs error, as a real desktop answers it), answers
``Introspect``, and drops the cookies of a client whose connection goes away (as real screen
savers do: the bus's NameOwnerChanged). Each event is one line appended to LOG:

    ready
    inhibit COOKIE SENDER APP|REASON
    uninhibit COOKIE SENDER
    dropped COOKIE SENDER
    refused MEMBER SIGNATURE

Written with jeepney (pure Python D-Bus), not with the app's own client, so the two ends share
no code.
"""

from __future__ import annotations

import sys
from pathlib import Path

from jeepney import HeaderFields, MessageType, new_error, new_method_return
from jeepney.bus_messages import DBus, MatchRule
from jeepney.io.blocking import open_dbus_connection

NAME = "org.freedesktop.ScreenSaver"
PATH = "/org/freedesktop/ScreenSaver"
INTROSPECTION = f"""<node>
 <interface name="{NAME}">
  <method name="Inhibit"><arg type="s" direction="in"/><arg type="s" direction="in"/>
   <arg type="u" direction="out"/></method>
  <method name="UnInhibit"><arg type="u" direction="in"/></method>
 </interface>
 <interface name="org.freedesktop.DBus.Introspectable">
  <method name="Introspect"><arg type="s" direction="out"/></method>
 </interface>
</node>"""
SIGNATURES = {"Inhibit": "ss", "UnInhibit": "u"}


def serve(address: str, log: Path) -> None:
    conn = open_dbus_connection(address)
    bus = DBus()
    owned = conn.send_and_get_reply(bus.RequestName(NAME, 4))  # DO_NOT_QUEUE
    if owned.body != (1,):  # PRIMARY_OWNER
        raise SystemExit(f"could not own {NAME}: {owned.body}")
    gone = MatchRule(type="signal", interface="org.freedesktop.DBus", member="NameOwnerChanged")
    conn.send_and_get_reply(bus.AddMatch(gone))
    cookies: dict[int, str] = {}
    serial = 0

    def note(line: str) -> None:
        with log.open("a", encoding="utf-8") as out:
            out.write(line + "\n")

    note("ready")
    while True:
        msg = conn.receive()
        fields = msg.header.fields
        member = fields.get(HeaderFields.member, "")
        sender = fields.get(HeaderFields.sender, "")
        if msg.header.message_type == MessageType.signal:
            if member == "NameOwnerChanged" and msg.body[2] == "":
                for cookie in [c for c, owner in cookies.items() if owner == msg.body[0]]:
                    del cookies[cookie]
                    note(f"dropped {cookie} {msg.body[0]}")
            continue
        if msg.header.message_type != MessageType.method_call:
            continue
        signature = fields.get(HeaderFields.signature, "")
        if member == "Introspect":
            conn.send(new_method_return(msg, "s", (INTROSPECTION,)))
        elif member in SIGNATURES and signature != SIGNATURES[member]:
            note(f"refused {member} {signature or '-'}")
            error = f"Type of message, '({signature})', does not match '({SIGNATURES[member]})'"
            conn.send(new_error(msg, "org.freedesktop.DBus.Error.InvalidArgs", "s", (error,)))
        elif member == "Inhibit":
            serial += 1
            cookies[serial] = sender
            note(f"inhibit {serial} {sender} {msg.body[0]}|{msg.body[1]}")
            conn.send(new_method_return(msg, "u", (serial,)))
        elif member == "UnInhibit":
            cookies.pop(msg.body[0], None)
            note(f"uninhibit {msg.body[0]} {sender}")
            conn.send(new_method_return(msg))
        else:
            conn.send(new_error(msg, "org.freedesktop.DBus.Error.UnknownMethod", "s", (member,)))


if __name__ == "__main__":
    serve(sys.argv[1], Path(sys.argv[2]))
