"""The conformance suite: a stdio adapter protocol, generated fixtures, a runner and mutants.

``python -m pointline.conformance.generate`` rebuilds ``fixtures/`` from the reference kernel;
``python -m pointline.conformance.runner`` checks an implementation (the reference
adapter by default); ``python -m pointline.conformance.mutants`` runs the deliberately wrong
implementations and prints the kill rate. The protocol is in ``PROTOCOL.md``.
"""
