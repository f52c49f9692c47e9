#!/usr/bin/env bash
# Install the desktop entry, the autostart entry and the icon for the current user.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
data="${XDG_DATA_HOME:-$HOME/.local/share}"
config="${XDG_CONFIG_HOME:-$HOME/.config}"
install -Dm644 "$here/deskgate.desktop" "$data/applications/deskgate.desktop"
install -Dm644 "$here/../resources/icons/active.svg" "$data/icons/hicolor/scalable/apps/deskgate.svg"
if [ "${1:-}" = "--autostart" ]; then
  install -Dm644 "$here/deskgate-autostart.desktop" "$config/autostart/deskgate.desktop"
fi
echo "installed: $data/applications/deskgate.desktop${1:+ and autostart}"
