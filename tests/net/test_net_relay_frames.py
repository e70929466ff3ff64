"""The relay's hot path for a ``send`` frame (``net.relay._frames``): strict, or declined."""

from __future__ import annotations

import pytest

from pointline.net.protocol._wire import Send, WireError, parse_client
from pointline.net.relay._server import send_payload


def test_the_hot_path_takes_only_a_strict_send_frame_as_the_client_writes_it() -> None:
    """``send_payload`` hands back the payload's text for a well-formed ``send`` frame and None
    for anything it cannot vouch for, which ``parse_client`` then decides: every frame it
    declines that is not strict is refused there too."""
    good = '{"kind":"commit","n":[1,{"x":-0.5}],"s":"caf\u00e9"}'
    assert send_payload('{"op":"send","payload":' + good + "}") == good
    lax = {
        "a member twice": '{"op":"send","payload":{"a":1,"b":{"c":1,"c":2}}}',
        "NaN": '{"op":"send","payload":{"a":NaN}}',
        "Infinity": '{"op":"send","payload":{"a":-Infinity}}',
        "too large": '{"op":"send","payload":{"a":1e999}}',
        "an integer too large for a double": '{"op":"send","payload":{"a":' + "9" * 400 + "}}",
        "a lone surrogate": '{"op":"send","payload":{"a":"\\ud800"}}',
        "too deep": '{"op":"send","payload":' + '{"a":' * 40 + "1" + "}" * 40 + "}",
        "payload twice": '{"op":"send","payload":{"a":1},"payload":{"b":2}}',
        "another member": '{"op":"send","payload":{"a":1},"x":1}',
        "not an object": '{"op":"send","payload":[1]}',
    }
    for name, text in lax.items():
        assert send_payload(text) is None, name
        with pytest.raises(WireError):
            parse_client(text)
    for fine in ('{"op":"send","payload":{"a":"\\u00e9"}}', '{"payload":{},"op":"send"}'):
        assert send_payload(fine) is None  # not vouched for here, but legal: parsed in full
        assert isinstance(parse_client(fine), Send)
