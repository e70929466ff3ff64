"""The client side: a connection to the relay that runs a protocol ``Peer``.

``relay_client`` (``RelayClient``: sign-in, rooms, the session loop feeding the peer; its
connection in ``_connection``, its own events in ``_events``), ``trust`` (the relay's key and
certificate pinned on first use) and ``headless`` (the ``pointline-client`` command,
``python -m pointline.net.client``).

It imports ``net.protocol`` and the kernel; never ``net.relay``.
"""
