#!/usr/bin/env python3
"""The meter bridge's page in headless Chromium, driven over its DevTools protocol: opens URL, lets it run
WARMUP seconds, then times SECONDS of animation frames (requestAnimationFrame intervals) and sums the page's
long tasks (main-thread work over 50 ms). Prints one JSON object. Used by Benchmarks/meter-bridge-page.

    page_frames.py URL [SECONDS] [WARMUP] [WIDTH,HEIGHT]
"""
import asyncio, json, os, shutil, subprocess, sys, tempfile, time, urllib.request

import websockets

url = sys.argv[1]
seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 10
warmup = float(sys.argv[3]) if len(sys.argv) > 3 else 4
size = sys.argv[4] if len(sys.argv) > 4 else "1400,900"
profile = tempfile.mkdtemp(prefix="jacktap-page-")
chrome = subprocess.Popen(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-port=0",
                           f"--window-size={size}", f"--user-data-dir={profile}", "about:blank"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
MEASURE = """new Promise(done => {
  const gaps = []; let last = performance.now(); const end = last + %d; let long = 0;
  new PerformanceObserver(list => { for (const e of list.getEntries()) long += e.duration; }).observe({entryTypes: ["longtask"]});
  function frame(t) {
    gaps.push(t - last); last = t;
    if (t < end) { requestAnimationFrame(frame); return; }
    gaps.sort((a, b) => a - b);
    const at = q => gaps[Math.min(gaps.length - 1, Math.floor(gaps.length * q))];
    done(JSON.stringify({frames: gaps.length, frame_ms_p50: at(0.5), frame_ms_p99: at(0.99), frame_ms_max: at(1),
                         long_task_ms: long, ports: document.querySelectorAll("article.port").length}));
  }
  requestAnimationFrame(frame);
})"""


async def main():
    port_file = os.path.join(profile, "DevToolsActivePort")
    for _ in range(300):
        if os.path.exists(port_file) and open(port_file).read().strip():
            break
        time.sleep(0.1)
    port = int(open(port_file).read().split()[0])
    targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list"))
    page = [t for t in targets if t["type"] == "page"][0]
    async with websockets.connect(page["webSocketDebuggerUrl"], max_size=None) as ws:
        ids = iter(range(1, 1 << 30))

        async def call(method, **params):
            my = next(ids)
            await ws.send(json.dumps({"id": my, "method": method, "params": params}))
            while True:
                message = json.loads(await ws.recv())
                if message.get("id") == my:
                    return message.get("result")

        await call("Page.navigate", url=url)
        await asyncio.sleep(warmup)
        result = await call("Runtime.evaluate", expression=MEASURE % int(seconds * 1000), awaitPromise=True,
                            returnByValue=True)
        print(result["result"]["value"])

try:
    asyncio.run(main())
finally:
    chrome.terminate()
    chrome.wait()
    shutil.rmtree(profile, ignore_errors=True)
