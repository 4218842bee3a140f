#!/usr/bin/env python3
"""An OSCQuery client for jacktap's tests (PyPI python-oscquery, on zeroconf): browses multicast DNS for
_oscjson._tcp and _osc._udp services until one named NAME appears (at most TIMEOUT seconds), asks it for
HOST_INFO, the whole tree, one node, one attribute and an address that does not exist, then waits until the
service says goodbye (jacktap stopped), and prints one JSON line with what it saw.

usage: oscquery_peer.py NAME NODE READYFILE [TIMEOUT]
  READYFILE is written once the service was found and queried (the test then stops jacktap).
"""
import json
import os
import sys
import time

import requests
from pythonoscquery.osc_query_browser import OSCQueryBrowser
from pythonoscquery.osc_query_client import OSCQueryClient

name, node_path, ready_file = sys.argv[1], sys.argv[2], sys.argv[3]
timeout = float(sys.argv[4]) if len(sys.argv) > 4 else 60
browser = OSCQueryBrowser()
out = {"found": False}
end = time.time() + timeout
service = None
while time.time() < end and service is None:
    for s in browser.get_discovered_oscquery():
        if s is not None and s.name == f"{name}._oscjson._tcp.local.":
            service = s
    time.sleep(0.05)
if service is not None:
    out["found"] = True
    out["address"] = ".".join(str(b) for b in service.addresses[0])
    out["port"] = service.port
    out["osc_services"] = sorted(s.name for s in browser.get_discovered_osc() if s is not None)
    client = OSCQueryClient(service)
    info = client.get_host_info()
    out["host_info"] = {"name": info.name, "osc_port": info.osc_port, "osc_transport": info.osc_transport}
    root = f"http://{out['address']}:{service.port}"
    out["tree"] = requests.get(root + "/").json()
    node = client.query_node(node_path)
    out["node"] = {"full_path": node.full_path, "value": node.value, "description": node.description}
    out["node_json"] = client.last_json
    out["value_only"] = requests.get(root + node_path + "?VALUE").json()
    out["missing_status"] = requests.get(root + "/jacktap/no_such_port/peak").status_code
    out["bad_attribute_status"] = requests.get(root + node_path + "?NOT_AN_ATTRIBUTE").status_code
    with open(ready_file + ".tmp", "w") as f:
        f.write("queried")
    os.rename(ready_file + ".tmp", ready_file)
    # jacktap says goodbye (TTL 0) when it stops: the browser forgets the service.
    out["removed"] = False
    while time.time() < end:
        if not any(s is not None and s.name == service.name for s in browser.listener.oscjson_services.values()) \
                and service.name not in browser.listener.oscjson_services:
            out["removed"] = True
            break
        time.sleep(0.05)
browser.zc.close()
print(json.dumps(out), flush=True)
