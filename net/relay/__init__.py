"""The relay side: accounts, rooms and forwarding over websockets; it deals nothing.

``server`` (the relay: rooms, forwarding, the signed roster), ``conn`` (limits, each
connection's sender and budgets), ``frames`` (a ``send`` frame's payload cut out as received),
``rooms`` (join codes and seats), ``accounts`` (sign-in, tokens, the relay key) over ``store``
(the storage interface, SQLite) or ``store_pg`` (PostgreSQL), ``cluster`` (routing between
relays) over ``presence`` (the Redis directory), and ``cli`` (the ``pointline-relay`` command,
``python -m pointline.net.relay``).

It imports ``net.protocol`` and the kernel; never ``net.client``.
"""
