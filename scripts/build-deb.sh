#!/bin/sh
# build-deb.sh: build the packaged (-tags packaged, CGO_ENABLED=0) binary and
# wrap it in a Debian package with dpkg-deb.
#
#   scripts/build-deb.sh [OUTDIR]          (default OUTDIR: dist)
#   VERSION=1.2.3 GOARCH=arm64 scripts/build-deb.sh
#
# Result: OUTDIR/firefox-rdp-mcp_VERSION_ARCH.deb with
#   /usr/bin/firefox-rdp-mcp
#   /usr/share/doc/firefox-rdp-mcp/{README.md,SECURITY.md,copyright,changelog.Debian.gz}
# Check it with: dpkg -i …deb && FIREFOX_MCP_BINARY=/usr/bin/firefox-rdp-mcp \
#   go test ./security-tests/...
set -eu

cd "$(dirname "$0")/.."
OUT=${1:-dist}
PKG=firefox-rdp-mcp
GOARCH=${GOARCH:-$(go env GOARCH)}
case "$GOARCH" in
	amd64) ARCH=amd64 ;;
	arm64) ARCH=arm64 ;;
	*) echo "build-deb: no seccomp policy for GOARCH=$GOARCH (amd64, arm64 only)" >&2; exit 2 ;;
esac
if [ -z "${VERSION:-}" ]; then
	VERSION=$(git describe --tags --match 'v[0-9]*' 2>/dev/null | sed 's/^v//; s/-/+/g' || true)
	[ -n "$VERSION" ] || VERSION=0.1.0
fi

STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT INT TERM
ROOT=$STAGE/root
mkdir -p "$ROOT/DEBIAN" "$ROOT/usr/bin" "$ROOT/usr/share/doc/$PKG"

CGO_ENABLED=0 GOOS=linux GOARCH=$GOARCH go build -trimpath -tags packaged \
	-ldflags "-s -w -X main.version=$VERSION" \
	-o "$ROOT/usr/bin/$PKG" ./cmd/firefox-rdp-mcp
chmod 0755 "$ROOT/usr/bin/$PKG"

DOC=$ROOT/usr/share/doc/$PKG
for f in README.md SECURITY.md; do
	if [ -f "$f" ]; then install -m 0644 "$f" "$DOC/$f"; fi
done
cat > "$DOC/copyright" <<COPYRIGHT
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: $PKG
Source: https://github.com/firefox-rdp-mcp/firefox-rdp-mcp

Files: *
Copyright: the firefox-rdp-mcp authors
License: Apache-2.0
Comment: statically linked Go binary (CGO_ENABLED=0). It embeds
 golang.org/x/sys (BSD-3-Clause), github.com/landlock-lsm/go-landlock (MIT),
 kernel.org/pub/linux/libs/security/libcap/psx (BSD-3-Clause or GPL-2.0),
 github.com/gorilla/websocket (BSD-2-Clause), github.com/lmittmann/tint (MIT)
 and the Go standard library (BSD-3-Clause).

License: Apache-2.0
 Licensed under the Apache License, Version 2.0 (the "License"); you may not
 use this file except in compliance with the License. You may obtain a copy of
 the License at http://www.apache.org/licenses/LICENSE-2.0
 .
 Unless required by applicable law or agreed to in writing, software
 distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
 WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the
 License for the specific language governing permissions and limitations under
 the License.
 .
 On Debian systems, the complete text of the Apache License, Version 2.0 is in
 /usr/share/common-licenses/Apache-2.0 (and in the LICENSE file of the source).
COPYRIGHT
printf '%s (%s) unstable; urgency=medium\n\n  * Packaged build (sandbox always enforced; uploads off until\n    FIREFOX_MCP_UPLOAD_ROOTS names a directory; log level warn).\n\n -- firefox-rdp-mcp authors <noreply@firefox-rdp-mcp.invalid>  %s\n' \
	"$PKG" "$VERSION" "$(date -R -u -d @"${SOURCE_DATE_EPOCH:-$(date +%s)}")" | gzip -9n > "$DOC/changelog.Debian.gz"
chmod 0644 "$DOC"/*

SIZE=$(du -sk "$ROOT/usr" | cut -f1)
cat > "$ROOT/DEBIAN/control" <<CONTROL
Package: $PKG
Version: $VERSION
Architecture: $ARCH
Maintainer: firefox-rdp-mcp authors <noreply@firefox-rdp-mcp.invalid>
Installed-Size: $SIZE
Section: web
Priority: optional
Homepage: https://github.com/firefox-rdp-mcp/firefox-rdp-mcp
Description: MCP server that drives your running Firefox, sandboxed
 firefox-rdp-mcp is a Model Context Protocol server (stdio) that lets an AI
 agent inspect and drive the user's own, already-running Firefox over the
 DevTools Remote Debugging Protocol. The process that speaks MCP and RDP runs
 under Landlock and seccomp with no filesystem access; a separate sandboxed
 broker reads only the files the user names for upload.
 .
 Configuration notes (environment): the sandbox is always enforced in this
 build (Linux 6.12+ with Landlock); uploads are disabled until
 FIREFOX_MCP_UPLOAD_ROOTS names at least one directory; the log level
 defaults to warn. Run "firefox-rdp-mcp doctor" to check a setup.
CONTROL

mkdir -p "$OUT"
DEB=$OUT/${PKG}_${VERSION}_${ARCH}.deb
dpkg-deb --root-owner-group -Zxz --build "$ROOT" "$DEB" >&2
echo "$DEB"
