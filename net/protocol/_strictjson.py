"""Strict JSON for everything the net layer reads: the kernel's reader (``kernel.strictjson``).

Relay frames, peer messages and transcripts are read with the same strict parser as the
kernel's documents: duplicate members, NaN/Infinity, lone surrogates and nesting past the
limit raise ``StrictJSONError`` (in the one error tree, code ``bad_json``; plain words in
``text``); nothing recurses. Kept as a module so the net layer names one reader.
"""

from pointline.kernel.strictjson import MAX_DEPTH, DuplicateMember, StrictJSONError, check, loads

__all__ = ["MAX_DEPTH", "DuplicateMember", "StrictJSONError", "check", "loads"]
