"""Who a Mini App request comes from: Telegram's ``initData``, checked as Telegram's
documentation says (core.telegram.org/bots/webapps, "Validating data received via the Mini
App").

The data-check string is every field but ``hash``, as ``key=value`` sorted by key and
joined by newlines; the secret is HMAC-SHA256 of the bot token keyed with "WebAppData";
``hash`` must be the hex HMAC-SHA256 of the check string under that secret. ``auth_date``
must be recent. A request that changes something also carries a nonce, used once
(``Nonces``): a copy of it sent again is refused.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlencode

from bot.service.users import Person

MAX_AGE = 24 * 3600  # seconds an initData stays good (a Mini App left open a day: reopen it)
PER_USER = 5_000  # presses of one user a day: far more than a day of play
SWEEP_EVERY = 60.0  # seconds between sweeps of nonces past their initData's age


class Unauthorized(ValueError):
    """The request does not prove its user; the message says why (logged, never shown)."""


@dataclass(frozen=True)
class InitData:
    user: Person
    auth_date: int
    start_param: str | None
    hash: str


def secret_key(token: str) -> bytes:
    return hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()


def _digest(fields: dict[str, str], token: str) -> str:
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    return hmac.new(secret_key(token), check.encode(), hashlib.sha256).hexdigest()


def sign(fields: dict[str, str], token: str) -> str:
    """``fields`` as a signed initData query string, as Telegram signs it (for tests and
    the benchmark, which play Telegram's part)."""
    return urlencode({**fields, "hash": _digest(fields, token)})


def validate(raw: str, token: str, *, now: float | None = None,
             max_age: float = MAX_AGE) -> InitData:
    """The user an initData string proves; ``Unauthorized`` if it proves nothing."""
    try:
        pairs = parse_qsl(raw, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        raise Unauthorized("initData is not a query string") from None
    fields = dict(pairs)
    if len(fields) != len(pairs):
        raise Unauthorized("a field comes twice")
    given = fields.pop("hash", "")
    if not hmac.compare_digest(given, _digest(fields, token)):
        raise Unauthorized("bad signature")
    auth_date = fields.get("auth_date", "")
    if not auth_date.isdigit():
        raise Unauthorized("no auth_date")
    age = (time.time() if now is None else now) - int(auth_date)
    if not -60 <= age <= max_age:  # a minute of clock skew
        raise Unauthorized(f"auth_date is {age:.0f} s old")
    try:
        user = json.loads(fields["user"])
        person = Person(int(user["id"]), " ".join(
            p for p in (user.get("first_name"), user.get("last_name")) if p),
            user.get("username"), user.get("language_code"))
    except (KeyError, TypeError, ValueError):
        raise Unauthorized("no user") from None
    return InitData(person, int(auth_date), fields.get("start_param"), given)


class Nonces:
    """Nonces seen from each user, each kept while the initData it came with is good: a
    request that comes again (the same nonce) is refused. Memory stays bounded by the users
    (whom only Telegram can sign for): a user may make ``per_user`` requests a day, and
    nonces past their initData's age are swept once a minute."""

    def __init__(self, max_age: float = MAX_AGE, per_user: int = PER_USER) -> None:
        self.max_age = max_age
        self.per_user = per_user
        self._seen: dict[int, dict[str, float]] = {}  # user -> nonce -> when it may go
        self._next_sweep = 0.0

    def use(self, init: InitData, nonce: str, *, now: float | None = None) -> None:
        now = time.time() if now is None else now
        if not 8 <= len(nonce) <= 64:
            raise Unauthorized("no nonce")
        if now >= self._next_sweep:
            self._seen = {user: kept for user, kept in (
                (user, {n: until for n, until in used.items() if until > now})
                for user, used in self._seen.items()) if kept}
            self._next_sweep = now + SWEEP_EVERY
        used = self._seen.setdefault(init.user.id, {})
        if nonce in used:
            raise Unauthorized("replayed request")
        if len(used) >= self.per_user:
            raise Unauthorized("too many requests from one user")
        used[nonce] = init.auth_date + self.max_age

    def __len__(self) -> int:
        """Nonces kept (for the tests and the benchmark)."""
        return sum(len(used) for used in self._seen.values())


def claimed_language(raw: Any) -> str | None:
    """The language an initData's user field names, proved or not (to word a refusal)."""
    if not isinstance(raw, str):
        return None
    try:
        user = json.loads(dict(parse_qsl(raw))["user"])
        return str(user["language_code"])
    except (KeyError, TypeError, ValueError):
        return None
