"""Tests kept above the operators they test, as PyPTO's interpreter tests are."""
