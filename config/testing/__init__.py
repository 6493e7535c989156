"""What only the test suite uses (``config.settings.test``)."""
