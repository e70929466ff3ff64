"""Signing in to a relay: the address, the account's name, the relay's trust questions, signing
out, and a new connection for the next room.

``Account`` is ``OnlineBridge.account``. The relay's key and certificate are pinned on first
use (``net.trust``, in the app's data folder); the open question about trusting them is the
bridge's ``trust`` (a ``RelayTrust``), which this object asks and answers.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from PySide6.QtCore import Property, QObject, Signal, Slot

from pointline.gui.online.from_net import (
    CertificateNotTrusted,
    ClientError,
    KnownRelays,
    RelayClient,
    RelayKeyChanged,
    connect_trusted,
    connection_warning,
    data_dir,
)
from pointline.gui.online.lobby import Lobby
from pointline.gui.online.state import DECLINED_TRUST, Connect, Link, Part
from pointline.gui.online.texts import (
    DEFAULT_RELAY,
    NAME_HINT,
    NO_RELAY_YET,
    password_hint,
    refusal,
    sign_in_problem,
    unreachable,
)
from pointline.gui.seat_table import state_property

__all__ = ["Account"]


class Account(Part):
    """Who I am at which relay (``name`` is "" until signed in)."""

    relayUrlChanged = Signal()
    nameChanged = Signal()

    def __init__(
        self,
        shell: Link,
        lobby: Lobby,
        url: str,
        connect: Connect | None,
        nonce_source: Callable[[], bytes] | None,
        ca: str | None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(shell, parent)
        self._lobby = lobby
        # No lambda over self here: the bridge must not sit in a reference cycle, so that it
        # is freed on the GUI thread when the app drops it, never by a garbage collection that
        # happens to run on another thread (a QObject deleted there leaves its timers behind).
        self._connect_override = connect
        self._nonce_source = nonce_source
        self._ca = ca
        self._pending: tuple[str, str, str, bool] | None = None
        """The sign-in waiting for the player to trust the relay's certificate."""
        self.put(relayUrl=url, name="")

    relayUrl = state_property(str, "relayUrl", relayUrlChanged)
    name = state_property(str, "name", nameChanged)
    nameHint = Property(str, lambda self: NAME_HINT, constant=True)
    noRelayText = Property(str, lambda self: NO_RELAY_YET, constant=True)
    passwordHint = Property(str, lambda self: password_hint(), constant=True)

    @Slot(str, result=str)
    def warningFor(self, url: str) -> str:
        """Plain words when the typed address is not encrypted (``ws://``), else ""."""
        return connection_warning(url) or ""

    @Slot(str)
    def use_relay(self, url: str) -> None:
        """A club's relay chosen from the tables nearby: its address in the typed field."""
        self.put(relayUrl=url)

    @property
    def url(self) -> str:
        return str(self._values["relayUrl"])

    def open_connection(self, url: str) -> Awaitable[RelayClient]:
        """Connect with the relay's key and certificate pinned on first use (``net.trust``,
        kept in the app's data folder); a certificate given as ``ca`` is trusted instead."""
        if self._connect_override is not None:
            return self._connect_override(url)
        options: dict[str, Any] = {
            "timeouts": self.shell.timeouts,
            "nonce_source": self._nonce_source,
        }
        if self._ca is not None:
            options["ca"] = self._ca
        return connect_trusted(url, KnownRelays(data_dir()), **options)

    # ------------------------------------------------------------------ sign in
    async def _sign(self, url: str, name: str, password: str, signup: bool) -> None:
        shell = self.shell
        url = url.strip() or DEFAULT_RELAY
        shell.set_busy(True)
        shell.set_error("")
        self.put(relayUrl=url)
        try:
            if shell.client is None or shell.client.closed.is_set():
                try:
                    shell.client = await asyncio.wait_for(self.open_connection(url), 12.0)
                except CertificateNotTrusted as exc:  # ask: "Trust this relay's certificate"
                    self._pending = (url, name, password, signup)
                    shell.relay_trust.ask_certificate(exc)
                    shell.announce(exc.text)
                    return
                except ClientError as exc:  # unreachable, refused certificate, bad address
                    known = exc.code in ("certificate", "bad_ca", "not_tls")
                    shell.set_error(refusal(exc.code) if known else unreachable(url))
                    return
                except (OSError, TimeoutError):
                    shell.set_error(unreachable(url))
                    return
                shell.pump(shell.client)
            try:
                if signup:
                    await shell.client.signup(name, password)
                else:
                    await shell.client.signin(name, password)
            except RelayKeyChanged as exc:  # signed in, but the lobby waits for the player
                shell.relay_trust.ask_key(exc)
                shell.announce(exc.text)
                return
            except ClientError as exc:
                shell.set_error(refusal(exc.code, exc.text))
                return
            except TimeoutError:
                shell.set_error("The relay did not answer in time: try again.")
                return
            self._signed_in(name)
        finally:
            shell.set_busy(False)

    def _signed_in(self, typed: str) -> None:
        client = self.shell.client
        name = (client.name if client else None) or typed  # the account's spelling
        self.put(name=name)
        self.shell.set_error("")
        # a relay by its address (a club's, a server's) vouches for no host: an earlier hosted
        # table's "hostana hosts this table" must not follow (issue 41, finding 7)
        self.shell.set_hosted("", False)
        self.shell.set_screen("lobby")
        self.shell.announce(f"Signed in as {name}. Create a room or join one by its code.")

    @Slot()
    def trustCertificate(self) -> None:
        """The player compared the fingerprint and trusts it: pin it, then sign in again."""
        trust = self.shell.relay_trust
        certificate, pending = trust.certificate, self._pending
        trust.clear()
        self._pending = None
        if certificate is None or pending is None:
            return
        try:
            KnownRelays(data_dir()).pin_certificate(certificate.address, certificate.pem)
        except ClientError as exc:
            self.shell.set_error(exc.text)
            return
        self.shell.spawn(self._sign(*pending))

    @Slot()
    def acceptRelayKey(self) -> None:
        """The player accepts the relay's new key (its owner said it changed): the lobby opens."""
        client = self.shell.client
        if self.shell.relay_trust.key_change is None or client is None:
            return
        self.shell.relay_trust.clear()
        client.accept_relay_key()
        self._signed_in(self._values["name"])

    @Slot()
    def declineTrust(self) -> None:
        """Not trusted: nothing is pinned, and no sign-in stays open."""
        trust = self.shell.relay_trust
        asking = trust.asking
        trust.clear()
        self._pending = None
        if not asking:
            return
        self.shell.set_error(DECLINED_TRUST)
        self.shell.spawn(self._drop_connection())

    async def _drop_connection(self) -> None:
        client, self.shell.client = self.shell.client, None
        if client is not None:
            await client.close()

    def _sign_slot(self, url: str, name: str, password: str, signup: bool) -> None:
        if self.shell.requesting():
            self.shell.set_error(refusal("busy"))
            return
        problem = sign_in_problem(name, password)
        if problem:  # refused here: nothing is sent and nothing changes but the message
            self.shell.set_error(problem)
            self.shell.announce(problem)
            return
        self.shell.spawn(self._sign(url, name, password, signup))

    @Slot(str, str, str)
    def signIn(self, url: str, name: str, password: str) -> None:
        self._sign_slot(url, name, password, signup=False)

    @Slot(str, str, str)
    def signUp(self, url: str, name: str, password: str) -> None:
        self._sign_slot(url, name, password, signup=True)

    @Slot()
    def signOut(self) -> None:
        """Revoke this sign-in at the relay and return to the sign-in screen (not mid-session)."""
        if self.shell.session_running():
            self.shell.set_error("Leave the table first: signing out is for the lobby.")
            return
        self.shell.spawn(self._signout())

    async def _signout(self) -> None:
        shell = self.shell
        client = shell.client
        shell.set_busy(True)
        shell.set_error("")
        note = ""
        try:
            if client is not None and not client.closed.is_set():
                if self._lobby.code:
                    await client.leave()
                if client.token is not None:
                    try:
                        await client.signout()
                    except (ClientError, TimeoutError):
                        note = (
                            "Signed out on this device; the relay did not confirm, so your "
                            "sign-in there ends when it expires."
                        )
            shell.client = None
            if client is not None:
                await client.close()
        finally:
            self.reset(error=note)
        shell.announce("Signed out.")

    def reset(self, error: str = "") -> None:
        """Back to the sign-in screen, signed out and in no room (``error`` says why)."""
        shell = self.shell
        self.put(name="")
        self._lobby.clear()
        shell.set_asking_leave(False)
        shell.set_screen("signin")
        shell.set_busy(False)
        shell.set_error(error)

    # ------------------------------------------------------------------ the next room
    async def reconnect(self) -> None:
        """A client runs one session, so the lobby gets a new connection signed in with the
        same account token (the relay's tokens belong to the account, not to a connection)."""
        shell = self.shell
        old = shell.client
        shell.client = None
        self._lobby.clear()
        shell.set_busy(True)
        try:
            if old is not None:
                await old.close()
            if old is None or old.token is None:
                self.reset()
                return
            url = old.url or self.url  # the relay it was on: a hosted table's, or the typed one
            try:
                client = await asyncio.wait_for(self.open_connection(url), 12.0)
            except Exception:  # unreachable now: back to sign-in with the reason
                self.reset(error=unreachable(url))
                return
            client.name, client.token = old.name, old.token
            shell.client = client
            shell.pump(client)
        finally:
            shell.set_busy(False)
