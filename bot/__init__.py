"""The Telegram bot: python-telegram-bot handlers, tables, rendering, sending, timers."""

import os

# python-telegram-bot 22 reports RetryAfter.retry_after as a timedelta with this opt-in
# (its documented path to the next major version); the outbox reads either form.
os.environ.setdefault("PTB_TIMEDELTA", "1")
