"""Registers the marker of the accounting tests that import dp-accounting (slow import)."""


def pytest_configure(config):  # type: ignore[no-untyped-def]
    config.addinivalue_line("markers", "dp_accounting: imports Google's dp-accounting (about 1 s to import)")
