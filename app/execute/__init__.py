"""Carrying out allowed actions: input events, shell commands inside the fence, system actions."""
