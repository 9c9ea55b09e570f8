from tests.storage.conftest import db_path, store

__all__ = ["db_path", "store"]
