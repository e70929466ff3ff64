"""The online protocol as a reference for ports: vectors, a peer harness and mutants.

- ``generate`` writes ``vectors/*.json`` (deterministic); ``check`` runs them against the
  reference code;
- ``harness`` drives a foreign client (``--client``) and a foreign verifier (``--verifier``)
  through the stdio interface of ``HARNESS.md``, with a real relay and reference peers;
- ``adapters`` holds the reference client, the socket-free sans-IO adapter and the verifier;
- ``mutants`` holds deliberately wrong reference peers, each killed by the vectors or the
  harness.
"""

__all__: list[str] = []  # run the modules: python -m pointline.conformance.online.<module>
