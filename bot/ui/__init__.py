"""The leaf toolkit every screen draws with: Screen and buttons, cards, callback data,
translations and their catalogs, the picture canvas."""
