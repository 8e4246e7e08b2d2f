"""A script of the project that the kernel does not import: not part of the package."""
print("notes")
