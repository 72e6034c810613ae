"""register() fails half-way."""


def register(ctx):
    raise RuntimeError("config is missing")
