"""kit-media: guarded host invocation and typed media delivery."""

__all__: list[str] = []
