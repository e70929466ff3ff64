"""The conformance suite: a stdio adapter protocol, generated fixtures, a runner and mutants.

``python -m conformance.generate`` rebuilds ``fixtures/`` from the reference kernel;
``python -m conformance.runner`` checks an implementation (the reference adapter by default);
``python -m conformance.mutants`` runs the deliberately wrong implementations and prints the
kill rate. The protocol is in ``PROTOCOL.md``.
"""
