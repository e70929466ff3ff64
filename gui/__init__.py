"""Pointline Table's Qt app: a QML pass-line table for solo play (the online layer plugs in)."""
