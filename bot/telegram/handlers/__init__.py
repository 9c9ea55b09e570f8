"""PTB handlers: read the update, call the use case, hand the outcome to the presenter.

Every press is answered (an alert says why nothing happened); nothing here raises
to the user.
"""
