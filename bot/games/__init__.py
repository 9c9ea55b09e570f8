"""What the bot knows of each game: lobby options, renderers, multi-step choices."""
