"""Forgot register()."""
