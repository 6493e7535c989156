"""PostgreSQL as the test suite uses it: see ``base``."""
