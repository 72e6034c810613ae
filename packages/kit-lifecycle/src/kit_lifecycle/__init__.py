"""kit-lifecycle: commands, middleware, hooks, skills and the registration receipt."""

__all__: list[str] = []
