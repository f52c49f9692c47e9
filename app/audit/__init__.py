"""The audit log: its schema, the chained writer, the reader, forwarding to syslog."""
