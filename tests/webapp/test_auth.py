"""initData as Telegram signs it: what proves a user, and what does not."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from collections.abc import Callable
from urllib.parse import urlencode

import pytest

from bot.webapp.auth import MAX_AGE, Nonces, Unauthorized, sign, validate

TOKEN = "123456:AAE-test-token-for-the-mini-app-0000"
USER = json.dumps({"id": 42, "first_name": "Ann", "last_name": "Lee", "username": "ann",
                   "language_code": "ru"})


def signed(**fields: str) -> str:
    return sign({"auth_date": str(int(time.time())), "user": USER, **fields}, TOKEN)


def test_a_signed_init_data_proves_its_user() -> None:
    init = validate(signed(start_param="12", query_id="AAQ"), TOKEN)
    assert (init.user.id, init.user.name, init.user.username) == (42, "Ann Lee", "ann")
    assert init.user.language_code == "ru" and init.start_param == "12"


def test_telegram_s_documented_check_string() -> None:
    """The check string is the fields but ``hash``, sorted, ``key=value`` per line; the secret
    is HMAC-SHA256("WebAppData", token) (computed here independently)."""
    fields = {"auth_date": str(int(time.time())), "user": USER, "query_id": "AAQ"}
    check = "\n".join(f"{k}={fields[k]}" for k in sorted(fields))
    secret = hmac.new(b"WebAppData", TOKEN.encode(), hashlib.sha256).digest()
    digest = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    assert validate(urlencode({**fields, "hash": digest}), TOKEN).user.id == 42


def _now() -> str:
    return str(int(time.time()))


FORGERIES: dict[str, tuple[Callable[[], str], str]] = {
    "another user": (lambda: signed().replace("%22id%22%3A+42", "%22id%22%3A+43"),
                     "bad signature"),
    "a field added": (lambda: signed() + "&start_param=7", "bad signature"),
    "another bot": (lambda: sign({"auth_date": _now(), "user": USER},
                                 "654321:other-bots-token-0000000"), "bad signature"),
    "expired": (lambda: sign({"auth_date": str(int(time.time()) - MAX_AGE - 5), "user": USER},
                             TOKEN), "old"),
    "from the future": (lambda: sign({"auth_date": str(int(time.time()) + 3600), "user": USER},
                                     TOKEN), "old"),
    "no date": (lambda: sign({"user": USER}, TOKEN), "no auth_date"),
    "no user": (lambda: sign({"auth_date": _now()}, TOKEN), "no user"),
    "an empty user": (lambda: sign({"auth_date": _now(), "user": "{}"}, TOKEN), "no user"),
    "nothing": (lambda: "", "bad signature"),
    "not a query": (lambda: "hash", "not a query string"),
    "a field twice": (lambda: signed() + "&user=x", "twice"),
}


@pytest.mark.parametrize("case", FORGERIES)
def test_what_proves_nobody(case: str) -> None:
    forge, why = FORGERIES[case]
    with pytest.raises(Unauthorized, match=why):
        validate(forge(), TOKEN)


def test_a_nonce_counts_once_per_user() -> None:
    nonces = Nonces()
    init, other = validate(signed(), TOKEN), validate(signed(query_id="x"), TOKEN)
    nonces.use(init, "a" * 16)
    with pytest.raises(Unauthorized, match="replayed"):
        nonces.use(other, "a" * 16)  # another launch of the app by the same user
    nonces.use(init, "b" * 16)
    with pytest.raises(Unauthorized, match="replayed"):
        nonces.use(init, "a" * 16)
    with pytest.raises(Unauthorized, match="no nonce"):
        nonces.use(init, "short")


def test_nonces_stay_bounded_per_user() -> None:
    """A user may make only so many requests however often he opens the app, and nonces past
    their initData's age are forgotten: a user cannot grow the server's memory."""
    nonces = Nonces(per_user=3)
    init = validate(signed(), TOKEN)
    for n in range(3):
        nonces.use(init, f"{n:016}")
    with pytest.raises(Unauthorized, match="too many"):
        nonces.use(init, "3" * 16)
    with pytest.raises(Unauthorized, match="too many"):
        nonces.use(validate(signed(query_id="y"), TOKEN), "a" * 16)  # another opening
    assert len(nonces) == 3
    later = init.auth_date + MAX_AGE + 1
    nonces.use(validate(signed(query_id="z"), TOKEN, now=later, max_age=MAX_AGE + 10),
               "b" * 16, now=later)
    assert len(nonces) == 1  # the earlier ones swept
