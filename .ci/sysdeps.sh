#!/usr/bin/env bash
# Install the Debian packages deskgate and its tests need, where missing. Idempotent; run as root or with sudo.
# The list is the tested recipe for Qt + Xvfb + JWM + pywinctl + mss + pyautogui + pynput on Debian 12.
set -euo pipefail
PKGS=(
  python3 python3-venv python3-dev python3-tk  # venv + headers; `import pyautogui` exits without tkinter
  gcc                                          # evdev (pynput's Linux dependency) compiles
  procps                                       # pywinctl's getAppName shells out to `ps`
  libegl1 libgl1 libfontconfig1 libglib2.0-0 libdbus-1-3 libxkbcommon0          # QtGui / QtWidgets
  libx11-xcb1 libxcb-cursor0 libxcb-icccm4 libxcb-image0 libxcb-keysyms1 libxcb-randr0 libxcb-render-util0
  libxcb-render0 libxcb-shape0 libxcb-shm0 libxcb-sync1 libxcb-util1 libxcb-xfixes0 libxcb-xkb1
  libxkbcommon-x11-0                           # Qt's xcb platform plugin
  xvfb jwm                                     # the test desktop: X server + EWMH window manager with a tray
  x11-xserver-utils                            # `import pywinctl` exits without xrandr
  xdotool                                      # tests inject real input (XTEST)
  xterm                                        # a real terminal: a typed line runs at Enter
  bubblewrap                                   # the fence around shell commands
  dbus-daemon at-spi2-core                     # accessibility bus + registry: the element under the pointer
  tesseract-ocr tesseract-ocr-eng              # text recognition of the target where no accessibility
  tesseract-ocr-deu tesseract-ocr-fra          # ... of labels that are not English (app/desktop/ocr.py reads all
                                               #     installed languages; add tesseract-ocr-<lang> for more)
  libtesseract-dev libleptonica-dev pkg-config # pip builds tesserocr (one Tesseract kept loaded) where it has no
                                               #     wheel; the manylinux wheels bring their own library
  rsyslog                                      # tests forward audit rows to a real syslog daemon
  make
)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if ! command -v apt-get >/dev/null; then
  echo "deskgate: missing system packages (${missing[*]}) and no apt-get here: install them by hand" >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then SUDO="sudo"; else
    echo "deskgate: missing system packages: ${missing[*]} — run as root: apt-get install ${missing[*]}" >&2
    exit 1
  fi
fi
echo "deskgate: installing system packages: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
