# Shared by scripts/run, scripts/test and scripts/bench. Source it; do not run it.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"

# Debian packages the build links against (and tmux for the terminal end-to-end tests).
SYSTEM_PACKAGES=(pkg-config libsecp256k1-dev libssl-dev libsqlite3-dev libncurses-dev libqrencode-dev
                 libchafa-dev libglib2.0-dev libstb-dev libwebp-dev libsecret-1-dev)
# What the install test checks with: man pages, the desktop entry, the linkstr:// handler; and the
# browser the HTML export is opened in, with pdftotext to read what it drew.
INSTALL_TEST_PACKAGES=(man-db desktop-file-utils xdg-utils chromium poppler-utils)
# What the keyring tests run: a session bus and GNOME Keyring's Secret Service, started by the tests.
KEYRING_TEST_PACKAGES=(dbus-daemon dbus-bin gnome-keyring libsecret-tools)

ensure_packages() {
    local missing=()
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "linkstr: installing ${missing[*]}" >&2
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || { echo "linkstr: please install as root: apt-get install ${missing[*]}" >&2; exit 1; }
        sudo="sudo"
    fi
    $sudo apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

ensure_swift() {
    command -v swift >/dev/null || { echo "linkstr: Swift 6.3 is required (https://swift.org/install)" >&2; exit 1; }
}

# A virtualenv with the test relay (nostr-relay) and rust-nostr's Python wheel (nostr-sdk).
VENV="${LINKSTR_TEST_VENV:-$ROOT/.venv-test}"
PY_PACKAGES="nostr-relay==1.14 nostr-sdk==0.45.1 cryptography"

ensure_venv() {
    local stamp="$VENV/.linkstr-packages"
    if [ -x "$VENV/bin/python" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$PY_PACKAGES" ]; then return 0; fi
    if ! python3 -m venv "$VENV" 2>/dev/null; then
        ensure_packages python3-venv
        python3 -m venv "$VENV"
    fi
    echo "linkstr: installing $PY_PACKAGES into $VENV" >&2
    "$VENV/bin/pip" install -q --disable-pip-version-check $PY_PACKAGES >&2
    echo "$PY_PACKAGES" > "$stamp"
    export LINKSTR_TEST_VENV="$VENV"
}
