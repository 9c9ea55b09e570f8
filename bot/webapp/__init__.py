"""The Mini App: the game drawn as a table and played by tapping cards, a second front end
over the same use cases, views and refusals as the keyboards (``server``)."""
