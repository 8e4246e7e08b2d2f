"""A module of the package that nothing imports: it stays out of an exported package."""
VALUE = 1
