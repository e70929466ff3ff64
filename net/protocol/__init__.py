"""The protocol core both sides share, sans-IO: no socket, no clock, no file of its own.

``keys`` (Ed25519 session keys, verification words), ``messages`` (signed canonical messages
and their strict parsing), ``roster`` (who sits where), ``ordering`` (each seat's sequence and
kinds in order), ``events`` (what a peer reports), ``peer`` (the ``Peer``: one seat's session,
its round, endings and receipts), ``transcript`` (the hash-chained log) and ``verify``
(``pointline verify FILE``: a transcript replayed through ``Peer``). ``wire`` is the relay
frame codec the client and the relay both speak (its strict JSON reading in ``_relay_json``,
``strictjson``), ``_ws`` the one websockets framing both sides use.

It imports the kernel and ``net.errors``; never ``net.client`` or ``net.relay``.
"""
