"""When the bot's calls a second over all chats run short, they go by rank
(bot/telegram/sending/budgets.py ``Rank``): an acting player's buttons first, then one-off
messages, the groups' table messages, and last the waiting players' panels."""

from __future__ import annotations

from bot.telegram.sending.budgets import Budgets, Rank


def test_a_busy_second_keeps_room_for_the_acting_players_buttons() -> None:
    budgets = Budgets(overall_limit=16)
    calls = [budgets.new_chat(chat_id) for chat_id in range(2, 14)]
    for chat in calls:  # 12 calls of the second made (not answered yet)
        budgets.record(chat)
    waiting = {rank: budgets.delay(budgets.new_chat(1), rank=rank) for rank in Rank}
    assert waiting[Rank.BUTTONS] == 0 and waiting[Rank.MESSAGE] == 0
    assert waiting[Rank.TABLE] > 0 and waiting[Rank.PANEL] > 0
    for _ in range(2):  # two calls left the window (answered over a second ago)
        budgets.overall.sent_at.popleft()
    assert budgets.delay(budgets.new_chat(1), rank=Rank.TABLE) == 0
    assert budgets.delay(budgets.new_chat(1), rank=Rank.PANEL) > 0
