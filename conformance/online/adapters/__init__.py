"""The reference adapters of the harness's stdio interface (``HARNESS.md``): ``client`` (the
websocket ``RelayClient``), ``peer`` (the sans-IO ``Peer`` with no sockets: the harness carries
its relay frames) and ``verifier`` (``pointline verify`` over transcript lines)."""

__all__: list[str] = []
