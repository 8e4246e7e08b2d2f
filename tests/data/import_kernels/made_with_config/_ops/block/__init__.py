"""The block operator: its kernel, and its config in a module of its own."""
