"""Tools around the app that the app never imports when it plays: the screenshot scenes (solo,
extras, online) and the layout check. The `pointline` command imports them on demand for
``--screenshot`` and ``--check-layout``; tests and tools/ import them directly."""
