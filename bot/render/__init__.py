"""Messages drawn from engine views: panels, table messages, deal summaries, scores."""
