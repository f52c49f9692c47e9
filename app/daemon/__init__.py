"""The supervisor process: the request pipeline, run state and control behind the Supervisor facade,
sessions, grants, the kill state's file, the socket server."""
