"""Settings, one module per environment: base, local, production, test.

Every module reads its values from the environment (see ``config.settings.env``).
"""
