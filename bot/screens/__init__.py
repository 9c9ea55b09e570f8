"""Screens: what a table, a panel, a lobby, a command's answer or an event looks like.

Pure functions of the tables, views and outcomes to ``Screen`` (text and
buttons) in the reader's language; no Telegram and no sending.
"""
