"""kit_media_contract: filled in by its contract tests."""


def register(ctx):  # noqa: ANN001, ANN201
    """Register nothing yet."""
