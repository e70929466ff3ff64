"""Online play: the signed commit-reveal protocol core (sans-IO), transcripts, verify, relay.

Protocol side: ``net.keys`` (Ed25519 session keys, verification words), ``net.messages``
(signed canonical messages), ``net.protocol`` (the ``Peer``), ``net.transcript`` (the
hash-chained log) and ``net.verify`` (``pointline verify FILE``). Relay side: ``net.relay``,
``net.client`` and friends. The net layer imports the kernel; the GUI may import net.
"""
