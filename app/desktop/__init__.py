"""The desktop as deskgate sees it: the active window, screenshots, reading targets, the person's input."""
