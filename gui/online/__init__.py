"""The Qt app online: sign in to a relay, a lobby, the shared-dice table and the results.

``gui.online.bridge.OnlineBridge`` wraps a ``net.client._relay_client.RelayClient`` for QML; its
coroutines run on the asyncio loop that qasync runs inside Qt. gui imports net, never the reverse.
"""
