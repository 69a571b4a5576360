#!/bin/sh
# A test exec credential plugin that fails like `aws eks get-token` without credentials: a message
# on stderr and exit code 3. It counts its runs in $COUNT_FILE.
if [ -n "$COUNT_FILE" ]; then
    echo $(( $(cat "$COUNT_FILE" 2>/dev/null || echo 0) + 1 )) > "$COUNT_FILE"
fi
echo "some progress output" >&2
echo "error: could not get token: AccessDenied for role ci-admin" >&2
exit 3
