# Shared set-up for scripts/demo and scripts/test: finds Go and installs
# Debian's firefox-esr when it is missing. Sourced, not run.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
export CGO_ENABLED=0

say() { printf '==> %s\n' "$*" >&2; }

ensure_go() {
	if ! command -v go >/dev/null 2>&1 && [ -x /usr/local/go/bin/go ]; then
		export PATH="/usr/local/go/bin:$PATH"
	fi
	if ! command -v go >/dev/null 2>&1; then
		say "Go is not installed. Install Go 1.26 or newer (https://go.dev/doc/install), then run this again."
		exit 1
	fi
	local v
	v=$(go env GOVERSION 2>/dev/null || echo go0)
	case "$v" in
	go1.2[6-9]* | go1.[3-9][0-9]*) ;;
	go1.2[1-5]*) # the go command fetches the toolchain go.mod asks for from the module proxy
		export GOTOOLCHAIN=auto ;;
	*)
		say "Go $v is too old: install Go 1.26 or newer (https://go.dev/doc/install), then run this again."
		exit 1 ;;
	esac
}

firefox_bin() {
	command -v firefox-esr 2>/dev/null || command -v firefox 2>/dev/null || true
}

ensure_firefox() {
	if [ -n "$(firefox_bin)" ]; then
		return
	fi
	local cmd="apt-get update && apt-get install -y firefox-esr"
	if [ "$(id -u)" -ne 0 ]; then
		say "Firefox is not installed. Install it as root, then run this again:"
		say "  sudo sh -c '$cmd'"
		exit 1
	fi
	say "installing Debian's firefox-esr"
	DEBIAN_FRONTEND=noninteractive sh -c "$cmd" >&2
}

# The confirmation window's tests show real zenity and kdialog windows on
# an Xvfb display and answer them with xdotool (confirm/, browser/).
ensure_window_tools() {
	local missing=()
	command -v Xvfb >/dev/null 2>&1 || missing+=(xvfb)
	command -v zenity >/dev/null 2>&1 || missing+=(zenity)
	command -v xdotool >/dev/null 2>&1 || missing+=(xdotool)
	command -v kdialog >/dev/null 2>&1 || missing+=(kdialog)
	if [ ${#missing[@]} -eq 0 ]; then
		return
	fi
	local cmd="apt-get update && apt-get install -y ${missing[*]}"
	if [ "$(id -u)" -ne 0 ]; then
		say "The confirmation window tests need ${missing[*]}. Install them as root, then run this again:"
		say "  sudo sh -c '$cmd'"
		exit 1
	fi
	say "installing ${missing[*]} for the confirmation window tests"
	DEBIAN_FRONTEND=noninteractive sh -c "$cmd" >&2
}
