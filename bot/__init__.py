"""The Telegram bot: python-telegram-bot handlers, tables, rendering, sending, timers."""
