"""QML modules of the Pointline app (data, shipped with the package)."""
