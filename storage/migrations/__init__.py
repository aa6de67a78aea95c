"""Numbered SQL migrations (`0001_initial.sql`, …), applied in order by `storage.migrate`.

A file that has been applied anywhere is never edited: change the schema with a new file.
"""
