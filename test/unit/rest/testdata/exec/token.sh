#!/bin/sh
# A test exec credential plugin. It counts its runs in $COUNT_FILE, saves $KUBERNETES_EXEC_INFO to
# $INFO_FILE, sleeps $SLEEP seconds, waits until the file $GATE_FILE exists, then prints an ExecCredential of $API_VERSION (default v1) with
# token "tok-<run>" and, when set, $EXPIRATION as status.expirationTimestamp.
count=1
if [ -n "$COUNT_FILE" ]; then
    count=$(( $(cat "$COUNT_FILE" 2>/dev/null || echo 0) + 1 ))
    echo "$count" > "$COUNT_FILE"
fi
if [ -n "$INFO_FILE" ]; then
    printf '%s' "$KUBERNETES_EXEC_INFO" > "$INFO_FILE"
fi
if [ -n "$SLEEP" ]; then
    sleep "$SLEEP"
fi
if [ -n "$GATE_FILE" ]; then
    while [ ! -e "$GATE_FILE" ]; do
        sleep 0.01
    done
fi
expiration=""
if [ -n "$EXPIRATION" ]; then
    expiration=",\"expirationTimestamp\":\"$EXPIRATION\""
fi
printf '{"apiVersion":"%s","kind":"ExecCredential","status":{"token":"tok-%s"%s}}\n' \
    "${API_VERSION:-client.authentication.k8s.io/v1}" "$count" "$expiration"
