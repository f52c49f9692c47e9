"""The supervisor process: the request pipeline, sessions, grants, kill state, the socket server."""
