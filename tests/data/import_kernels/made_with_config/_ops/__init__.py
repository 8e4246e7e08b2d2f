"""Operators kept apart from their tests."""
