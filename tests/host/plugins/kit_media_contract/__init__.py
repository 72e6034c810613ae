"""kit_media_contract: filled in by its contract tests."""


def register(ctx):
    """Register nothing yet."""
