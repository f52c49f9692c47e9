"""deskgate's runtime: processes, threads, sockets, the desktop, the database, the executor."""

__version__ = "0.1.0"
