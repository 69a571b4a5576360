#!/bin/sh
# A test exec credential plugin that prints a fixed output chosen by $MODE.
case "$MODE" in
    not-json) echo "this is not json" ;;
    no-status) echo '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential"}' ;;
    empty-status) echo '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{}}' ;;
    cert-only) echo '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"clientCertificateData":"CERT","clientKeyData":"KEY"}}' ;;
    key-only) echo '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"clientKeyData":"KEY"}}' ;;
    bad-time) echo '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"t","expirationTimestamp":"tomorrow"}}' ;;
    wrong-kind) echo '{"apiVersion":"client.authentication.k8s.io/v1","kind":"Pod","status":{"token":"t"}}' ;;
    *) echo "unknown MODE" >&2; exit 2 ;;
esac
