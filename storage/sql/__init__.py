"""The stores, written once for both engines against `storage.sql.conn`."""
