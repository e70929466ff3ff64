"""Pointline Table: a pass-line dice table with free fictional points only.

One distribution, one top-level name. The card's folders install as subpackages:

- ``pointline.kernel``: the pure, typed rules kernel (no I/O, no Qt, no randomness).
- ``pointline.spec``: the rules in plain words and the z3 proofs of the kernel's invariants.
- ``pointline.conformance``: the stdio protocol, runner and mutants (fixtures ship in the sdist).
- ``pointline.net``: the sans-IO online protocol, the relay and the client peer.
- ``pointline.gui``: the PySide6 QML app.

In a checkout, ``pointline/<name>`` is a link to the top-level folder ``<name>/``, so the same
imports work from the source tree and from an installed wheel. Layers import downwards only:
kernel imports nothing of ours; net and gui import kernel; gui imports net, never the reverse.
"""

__all__: list[str] = []
__version__ = "0.1.0"
