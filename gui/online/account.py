"""Sign-in, the relay's trust questions, the lobby and leaving online play: a part of
``OnlineBridge`` (see gui/online/state.py).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

from PySide6.QtCore import Property, Signal, Slot

from pointline.gui.online.state import CREATOR_SEAT, DECLINED_TRUST, OnlineState, words_for
from pointline.gui.online.texts import (
    DEFAULT_RELAY,
    MAX_PEOPLE,
    MIN_PEOPLE,
    refusal,
    seat_label,
    sign_in_problem,
    unreachable,
)
from pointline.kernel import (
    is_online_seat_count,
)
from pointline.net.client.relay_client import (
    RelayClient,
    connect_trusted,
)
from pointline.net.client.trust import CertificateNotTrusted, KnownRelays, RelayKeyChanged
from pointline.net.errors import ClientError
from pointline.net.paths import data_dir
from pointline.net.protocol.wire import RosterEntry

__all__ = ["AccountPart"]


class AccountPart(OnlineState):
    """Sign-in, the relay's trust questions, the lobby and leaving online play."""

    left = Signal()
    """The bridge has shut down after ``leave`` (the app returns to the solo table)."""

    def _connect(self, url: str) -> Awaitable[RelayClient]:
        """Connect with the relay's key and certificate pinned on first use (``net.client.trust``,
        kept in the app's data folder); a certificate given as ``ca`` is trusted instead."""
        if self._connect_override is not None:
            return self._connect_override(url)
        options: dict[str, Any] = {"timeouts": self.timeouts, "nonce_source": self._nonce_source}
        if self._ca is not None:
            options["ca"] = self._ca
        return connect_trusted(url, KnownRelays(data_dir()), **options)

    # ------------------------------------------------------------------ sign in
    async def _sign(self, url: str, name: str, password: str, signup: bool) -> None:
        url = url.strip() or DEFAULT_RELAY
        self._set(busy=True, error="", url=url)
        try:
            if self.client is None or self.client.closed.is_set():
                try:
                    self.client = await asyncio.wait_for(self._connect(url), 12.0)
                except CertificateNotTrusted as exc:  # ask: "Trust this relay's certificate"
                    self._pending = (url, name, password, signup)
                    self._trust.ask_certificate(exc)
                    self._announce(exc.text)
                    return
                except ClientError as exc:  # unreachable, refused certificate, bad address
                    known = exc.code in ("certificate", "bad_ca", "not_tls")
                    self._set(error=refusal(exc.code) if known else unreachable(url))
                    return
                except (OSError, TimeoutError):
                    self._set(error=unreachable(url))
                    return
                self._spawn(self._pump(self.client), request=False).set_name("online-pump")
            try:
                if signup:
                    await self.client.signup(name, password)
                else:
                    await self.client.signin(name, password)
            except RelayKeyChanged as exc:  # signed in, but the lobby waits for the player
                self._trust.ask_key(exc)
                self._announce(exc.text)
                return
            except ClientError as exc:
                self._set(error=refusal(exc.code, exc.text))
                return
            except TimeoutError:
                self._set(error="The relay did not answer in time: try again.")
                return
            self._signed_in(name)
        finally:
            self._set(busy=False)

    def _signed_in(self, typed: str) -> None:
        name = (self.client.name if self.client else None) or typed  # the account's spelling
        self._set(name=name, screen="lobby", error="")
        self._announce(f"Signed in as {name}. Create a room or join one by its code.")

    @Slot()
    def trustCertificate(self) -> None:
        """The player compared the fingerprint and trusts it: pin it, then sign in again."""
        certificate, pending = self._trust.certificate, self._pending
        self._trust.clear()
        self._pending = None
        if certificate is None or pending is None:
            return
        try:
            KnownRelays(data_dir()).pin_certificate(certificate.address, certificate.pem)
        except ClientError as exc:
            self._set(error=exc.text)
            return
        self._spawn(self._sign(*pending))

    @Slot()
    def acceptRelayKey(self) -> None:
        """The player accepts the relay's new key (its owner said it changed): the lobby opens."""
        if self._trust.key_change is None or self.client is None:
            return
        self._trust.clear()
        self.client.accept_relay_key()
        self._signed_in(self._name)

    @Slot()
    def declineTrust(self) -> None:
        """Not trusted: nothing is pinned, and no sign-in stays open."""
        asking = self._trust.asking
        self._trust.clear()
        self._pending = None
        if not asking:
            return
        self._set(error=DECLINED_TRUST)
        self._spawn(self._drop_connection())

    async def _drop_connection(self) -> None:
        client, self.client = self.client, None
        if client is not None:
            await client.close()

    def _sign_slot(self, url: str, name: str, password: str, signup: bool) -> None:
        if self._busy or self._requests:
            self._set(error=refusal("busy"))
            return
        problem = sign_in_problem(name, password)
        if problem:  # refused here: nothing is sent and nothing changes but the message
            self._set(error=problem)
            self._announce(problem)
            return
        self._spawn(self._sign(url, name, password, signup))

    @Slot(str, str, str)
    def signIn(self, url: str, name: str, password: str) -> None:
        self._sign_slot(url, name, password, signup=False)

    @Slot(str, str, str)
    def signUp(self, url: str, name: str, password: str) -> None:
        self._sign_slot(url, name, password, signup=True)

    @Slot()
    def signOut(self) -> None:
        """Revoke this sign-in at the relay and return to the sign-in screen (not mid-session)."""
        if self._session_running():
            self._set(error="Leave the table first: signing out is for the lobby.")
            return
        self._spawn(self._signout())

    async def _signout(self) -> None:
        client = self.client
        self._set(busy=True, error="")
        note = ""
        try:
            if client is not None and not client.closed.is_set():
                if self._code:
                    await client.leave()
                if client.token is not None:
                    try:
                        await client.signout()
                    except (ClientError, TimeoutError):
                        note = (
                            "Signed out on this device; the relay did not confirm, so your "
                            "sign-in there ends when it expires."
                        )
            self.client = None
            if client is not None:
                await client.close()
        finally:
            self._reset_account(error=note)
        self._announce("Signed out.")

    def _reset_account(self, error: str = "") -> None:
        self._set(
            screen="signin",
            name="",
            code="",
            creator="",
            roster=(),
            seat=-1,
            busy=False,
            error=error,
            asking_leave=False,
        )

    # ------------------------------------------------------------------ lobby
    async def _request(self, make: Callable[[RelayClient], Awaitable[Any]]) -> Any:
        client = self.client
        if client is None:
            self._set(error="Sign in first.")
            return None
        self._set(busy=True, error="")
        try:
            return await make(client)
        except ClientError as exc:
            self._set(error=refusal(exc.code, exc.text))
            return None
        except TimeoutError:
            self._set(error="The relay did not answer in time: try again.")
            return None
        finally:
            self._set(busy=False)

    async def _enter(self, make: Callable[[RelayClient], Awaitable[Any]]) -> None:
        room = await self._request(make)
        if room is None:
            return
        self._set(code=room.code, creator=room.creator, roster=room.roster, seat=room.seat)
        self._announce(f"Room {room.code}: you are {seat_label(room.seat)}. Share the code.")

    @Slot()
    def createRoom(self) -> None:
        self._spawn(self._enter(lambda c: c.create_room()))

    @Slot(str)
    def joinRoom(self, code: str) -> None:
        code = code.strip().upper()
        if not code:
            self._set(error="Type the room's join code first.")
            return
        self._spawn(self._enter(lambda c: c.join_room(code)))

    @Slot()
    def startRoom(self) -> None:
        reason = self._start_reason()
        if reason:
            self._set(error=reason)
            return
        self._spawn(self._request(lambda c: c.start()))

    async def _leave(self) -> None:
        running = self._session_running()
        if self.client is not None:
            await self.client.leave()
        if running:  # the ending names the seats: keep them until the results
            self._set(asking_leave=False)
        else:
            self._set(code="", creator="", roster=(), seat=-1, asking_leave=False)

    @Slot()
    def leaveRoom(self) -> None:
        """Leave the room (once started: a departure that ends the session for everyone)."""
        self._spawn(self._leave())

    @Slot()
    def backToLobby(self) -> None:
        """After the results: a fresh room (nothing carries over between sessions).

        A client runs one session, so the lobby gets a new connection signed in with the same
        account token (the relay's tokens belong to the account, not to a connection).
        """
        self._spawn(self._reconnect())
        self._moment.finish()
        self._set(
            shown=None,
            after_moment="",
            screen="lobby",
            outcome="",
            end_text="",
            receipts="",
            transcript="",
            verify_text="",
            verify_ok=False,
            verifying=False,
            draft=None,
            view=None,
            dice=(0, 0),
            serial=0,
            notice="",
            help=False,
        )

    async def _reconnect(self) -> None:
        old = self.client
        self.client = None
        self._set(code="", creator="", roster=(), seat=-1, busy=True)
        try:
            if old is not None:
                await old.close()
            if old is None or old.token is None:
                self._reset_account()
                return
            try:
                client = await asyncio.wait_for(self._connect(self._url), 12.0)
            except Exception:  # unreachable now: back to sign-in with the reason
                self._reset_account(error=unreachable(self._url))
                return
            client.name, client.token = old.name, old.token
            self.client = client
            self._spawn(self._pump(client), request=False).set_name("online-pump")
        finally:
            self._set(busy=False)

    # ------------------------------------------------------------------ leaving online play
    @Slot()
    def leave(self) -> None:
        """Back to the solo table: sign out, close the connection, then call ``on_leave``.

        Offered on the sign-in and lobby screens (and after the results); at a running table
        it is refused (Leave table ends the session first), so it never ends a session itself.
        """
        if self._leaving:
            return
        if self._session_running():
            self._notice = "Leave the table first: the session is still running."
            self._announce(self._notice)
            self._show_table()
            return
        self._leaving = True
        self._spawn(self._leave_online())

    @Slot()
    def windowClosed(self) -> None:
        """The online window was closed: as Back to solo table, but even mid-session (then the
        session ends as this seat's departure, as closing the standalone app does)."""
        if self._leaving:
            return
        self._leaving = True
        self._spawn(self._leave_online())

    async def _leave_online(self) -> None:
        client = self.client
        self._set(busy=True)
        if (
            client is not None
            and not client.closed.is_set()
            and client.token is not None
            and not self._session_running()
        ):
            with contextlib.suppress(ClientError, TimeoutError):
                if self._code:
                    await client.leave()
                await asyncio.wait_for(client.signout(), 3.0)
        await self.shutdown()
        self._reset_account()
        self.left.emit()
        if self._on_leave is not None:
            self._on_leave()

    canLeave = Property(bool, lambda self: self._on_leave is not None, constant=True)
    """Whether a solo table waits behind this window (``Back to solo table`` is shown)."""

    async def shutdown(self) -> None:
        """Close the connection (a departure if a session runs) and stop our tasks."""
        self._countdown.run_to(None)
        client, self.client = self.client, None
        if client is not None:
            await client.close()
        for task in list(self._tasks):
            if task is not asyncio.current_task():
                task.cancel()

    def _roster_rows(self) -> list[dict[str, Any]]:
        return [
            {
                "seat": e.seat,
                "label": seat_label(e.seat),
                "name": e.name,
                "words": words_for(e.session_key),
                "you": e.seat == self._seat,
                "creator": e.seat == CREATOR_SEAT,
            }
            for e in self._roster
        ]

    def _roster_seat(self, roster: tuple[RosterEntry, ...]) -> int | None:
        """My seat in a roster the relay sent, found by my session key (None: not in it)."""
        key = None if self.client is None else self.client.signing_key
        mine = [e.seat for e in roster if key is not None and e.session_key == key.public_hex]
        return mine[0] if len(mine) == 1 else None

    def _is_creator(self) -> bool:
        """Whether I created this room: the relay seats its creator at seat 0 of the roster it
        sends (the relay alone decides, folding the case of names as it does)."""
        return bool(self._code) and self._roster_seat(self._roster) == CREATOR_SEAT

    def _start_reason(self) -> str:
        if not self._code:
            return "Create or join a room first."
        if not self._is_creator():
            return f"Waiting for {self._creator}, who created the room, to start it."
        if not is_online_seat_count(len(self._roster)):
            return (
                f"A room starts with {MIN_PEOPLE} to {MAX_PEOPLE} people: wait for at least "
                "one more."
            )
        return ""
