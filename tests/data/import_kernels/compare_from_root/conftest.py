"""Under pytest this folder goes on sys.path (no __init__.py here): tests import `checks` from it."""
