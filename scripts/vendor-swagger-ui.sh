#!/usr/bin/env bash
# Vendor Swagger UI (the swagger-ui-dist package of the npm registry) into the web UI's static
# files, for /docs: it reads the OpenAPI 3.1 document FastAPI writes, and is served from the
# package itself (no CDN, nothing downloaded at run time). Run it to move to another version:
#   bash scripts/vendor-swagger-ui.sh 5.35.0
set -euo pipefail
VERSION="${1:-5.35.0}"
DEST="$(cd "$(dirname "$0")/.." && pwd)/src/civtable/web/static/vendor/swagger-ui"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
(cd "$TMP" && npm pack --silent "swagger-ui-dist@${VERSION}" >/dev/null && tar xzf swagger-ui-dist-*.tgz)
mkdir -p "$DEST"
for f in swagger-ui-bundle.js swagger-ui-bundle.js.LICENSE.txt swagger-ui.css LICENSE NOTICE; do
  cp "$TMP/package/$f" "$DEST/$f"
done
echo "swagger-ui-dist ${VERSION}" > "$DEST/VERSION"
echo "vendored swagger-ui-dist ${VERSION} into ${DEST}"
