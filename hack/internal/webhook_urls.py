#!/usr/bin/env python3
"""Reads webhook configurations as JSON on stdin (objects one after another, or a List, as
`kubectl create --dry-run=client -o json` prints them) and prints them as one List whose webhooks
call BASE_URL + their Service path instead of the Service (clientConfig.url), without a caBundle
(the operator's self-managed certificates inject it). Used by hack/run-local.sh, where the API
server calls the operator on loopback. Exits 1 naming a webhook that has no Service path."""
import json
import sys

if len(sys.argv) != 2:
    sys.exit("usage: webhook_urls.py BASE_URL  (e.g. https://127.0.0.1:9443)")
base = sys.argv[1].rstrip("/")
text, decoder, objects, at = sys.stdin.read(), json.JSONDecoder(), [], 0
while True:
    while at < len(text) and text[at].isspace():
        at += 1
    if at == len(text):
        break
    parsed, at = decoder.raw_decode(text, at)
    objects.extend(parsed["items"] if parsed.get("kind") == "List" else [parsed])
configurations = []
for obj in objects:
    if obj.get("kind") not in ("ValidatingWebhookConfiguration", "MutatingWebhookConfiguration"):
        continue
    for webhook in obj.get("webhooks", []):
        service = webhook.get("clientConfig", {}).get("service")
        if not service or not service.get("path"):
            sys.exit(f"webhook_urls.py: {obj['kind']} {obj['metadata']['name']}: webhook "
                     f"{webhook.get('name')} calls no Service path to turn into a URL")
        webhook["clientConfig"] = {"url": base + service["path"]}
    configurations.append(obj)
if not configurations:
    sys.exit("webhook_urls.py: no webhook configuration on stdin")
json.dump({"apiVersion": "v1", "kind": "List", "items": configurations}, sys.stdout, indent=2)
print()
