#!/bin/sh
# A client.authentication.k8s.io exec plugin for tests. It counts its runs in $COUNT_FILE, prints
# $FIRST_TOKEN on its first run and $LATER_TOKEN afterwards, expiring $EXPIRY_SECONDS from now.
set -eu
n=$(cat "$COUNT_FILE" 2>/dev/null || echo 0)
n=$((n + 1))
echo "$n" > "$COUNT_FILE"
if [ "$n" -eq 1 ]; then token="$FIRST_TOKEN"; else token="$LATER_TOKEN"; fi
expiry=$(date -u -d "${EXPIRY_SECONDS} seconds" +%Y-%m-%dT%H:%M:%SZ)
printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"%s","expirationTimestamp":"%s"}}\n' \
    "$token" "$expiry"
