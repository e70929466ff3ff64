"""Fixtures for the relay/online tests: a private data folder for each test.

No pytest-asyncio here: each test calls ``tests.net.support.run(coro)``, which runs it on a
fresh loop under a hard timeout. Transcripts go to a temporary ``POINTLINE_DATA_DIR``.
"""

from __future__ import annotations

from tests.net.support import data_dir

__all__ = ["data_dir"]
