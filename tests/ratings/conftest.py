from tests.storage.conftest import store

__all__ = ["store"]
