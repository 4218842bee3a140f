extension MeterBridgePage {
    /// The page's script: reads `/snapshot.json` once, then the `/ws` stream; keeps the figures as text in
    /// elements carrying their OSC paths, and draws the bars, spectra and histories on canvases once per
    /// animation frame (the newest tick only, so 64 ports stay smooth: no layout is read back while drawing).
    static let script = #"""
    "use strict";
    (() => {
    const prefix = document.querySelector('meta[name="jacktap-prefix"]').content;
    // The schema of figures, as the server wrote it into the page: each path's label and one-line summary.
    const schema = JSON.parse(document.getElementById("figures").textContent);
    const labelOf = path => (schema[path] || {}).label || path;
    const FLOOR = -60;                 // the level bars' and histories' bottom, dBFS
    const HISTORY_SECONDS = 30;
    const HOLD_SECONDS = 1.5, FALL_DB_PER_SECOND = 20;   // jacktap's --hold and --fall defaults
    const ports = new Map(), programmes = new Map(), pairs = new Map();
    const portsBox = document.getElementById("ports");
    const programmesBox = document.getElementById("programmes");
    const pairsBox = document.getElementById("pairs");
    const linkText = document.getElementById("link");
    const statusFields = [...document.querySelectorAll('#status [data-path]')];
    const detail = document.getElementById("detail");
    const detailCanvas = document.getElementById("detail-spectrum");
    let detailPort = null;
    let lastTickTime = null, lastTickArrival = 0, drawPending = false, ticksSeen = 0;

    // The loudness target: ?target=-14 in the address, else the last one chosen here, else EBU R128's -23.
    const targetSelect = document.getElementById("target");
    let target = -23;
    try { target = Number(localStorage.getItem("jacktap-target") ?? -23); } catch (e) {}
    const asked = Number(new URLSearchParams(location.search).get("target"));
    if (new URLSearchParams(location.search).has("target") && Number.isFinite(asked)) target = asked;
    if (![...targetSelect.options].some(o => Number(o.value) === target)) {
      targetSelect.add(new Option(target + " LUFS", String(target)));
    }
    targetSelect.value = String(target);
    targetSelect.addEventListener("change", () => {
      target = Number(targetSelect.value);
      try { localStorage.setItem("jacktap-target", String(target)); } catch (e) {}
      for (const p of programmes.values()) p.dirty = true;
      scheduleDraw();
    });

    function make(tag, className, text) {
      const e = document.createElement(tag);
      if (className) e.className = className;
      if (text !== undefined) e.textContent = text;
      return e;
    }
    // A figure: its label and a text element carrying the OSC address (and the argument's index).
    // A figure's box: its label (the schema's, for a path it declares; `label` as given otherwise) over its
    // value, with the schema's summary as the box's tooltip.
    function figure(parent, label, path, arg) {
      const box = make("span", "figure");
      const declared = schema[label];
      box.append(make("small", null, declared ? declared.label : label));
      if (declared) box.title = declared.summary;
      const value = make("b", "value", "–");
      value.dataset.path = path;
      if (arg !== undefined) value.dataset.arg = String(arg);
      box.append(value);
      parent.append(box);
      return value;
    }
    function setText(e, text) { if (e.textContent !== text) e.textContent = text; }
    const dB = v => (typeof v === "number" ? v.toFixed(1) : "–");
    const unit = v => Math.min(1, Math.max(0, v));
    const sanitized = name => name;   // keys arrive already as jacktap's OSC path parts

    function canvasIn(parent, className) {
      const c = make("canvas", className);
      parent.append(c);
      return c;
    }
    // Sizes a canvas's bitmap to its box in device pixels; true when it changed (the caller redraws all).
    function fit(canvas) {
      const r = canvas.getBoundingClientRect(), k = window.devicePixelRatio || 1;
      const w = Math.max(1, Math.round(r.width * k)), h = Math.max(1, Math.round(r.height * k));
      if (canvas.width === w && canvas.height === h) return false;
      canvas.width = w; canvas.height = h;
      return true;
    }

    // Canvases are drawn only for the cards on screen: with 64 ports most are scrolled away, and raster work
    // for them would cost frames (their figures, being text, stay current for scripts).
    const visibility = new IntersectionObserver(entries => {
      for (const entry of entries) {
        const p = ports.get(entry.target.dataset.port);
        if (!p) continue;
        const was = p.visible;
        p.visible = entry.isIntersecting;
        if (p.visible && !was && p.reading) { p.columns = null; p.dirty = true; scheduleDraw(); }
      }
    });

    function port(name) {
      let p = ports.get(name);
      if (p) return p;
      const base = prefix + "/" + sanitized(name) + "/";
      const card = make("article", "port");
      card.dataset.port = name;
      card.tabIndex = 0;
      const head = make("h2");
      head.append(make("span", "name", name));
      const beat = make("span", "beat"), onset = make("span", "onset");
      beat.title = "beat"; onset.title = "onset";
      head.append(onset, beat);
      card.append(head);
      const level = canvasIn(card, "level");
      const row1 = make("div", "figures");
      card.append(row1);
      p = {
        name, card, level, beat, onset,
        peak: figure(row1, "peak", base + "peak"),
        rms: figure(row1, "rms", base + "rms"),
        truepeak: figure(row1, "truepeak", base + "truepeak"),
        hold: null,
      };
      const row2 = make("div", "figures");
      card.append(row2);
      p.note = figure(row2, "note", base + "note", 0);
      p.cents = figure(row2, "cents", base + "note", 2);
      p.tempo = figure(row2, "tempo", base + "tempo");
      const barBox = make("span", "figure tight");
      barBox.append(make("small", null, "bar"));
      p.bar = make("b", "value bare", "–"); p.bar.dataset.path = base + "bar"; p.bar.dataset.arg = "0";
      p.beatInBar = make("b", "value bare", "–"); p.beatInBar.dataset.path = base + "bar"; p.beatInBar.dataset.arg = "1";
      p.beatsPerBar = make("span", "per-bar", "");
      barBox.append(p.bar, make("span", null, "."), p.beatInBar, p.beatsPerBar);
      row2.append(barBox);
      p.spectrum = canvasIn(card, "spectrum");
      p.history = canvasIn(card, "history");
      p.reading = null; p.dirty = false;
      p.holdDB = -Infinity; p.holdAt = 0;
      // The last 30 s of peak level: the raw ticks (to redraw after a resize) and the columns drawn so far.
      p.times = []; p.peaks = []; p.columns = null; p.drawnColumn = null;
      p.visible = true;
      visibility.observe(card);
      card.addEventListener("click", () => openDetail(name));
      card.addEventListener("keydown", e => { if (e.key === "Enter") openDetail(name); });
      portsBox.append(card);
      ports.set(name, p);
      return p;
    }

    function programme(name) {
      let g = programmes.get(name);
      if (g) return g;
      const base = prefix + "/" + sanitized(name) + "/loudness/";
      const card = make("article", "programme");
      const title = make("h2", null, name);
      // The alarms that are on (--alarms), named beside the programme's name.
      const alarmBox = make("span", "alarms", "");
      alarmBox.dataset.path = prefix + "/" + sanitized(name) + "/alarm";
      title.append(alarmBox);
      card.append(title);
      const bars = canvasIn(card, "loudness");
      const row = make("div", "figures");
      card.append(row);
      g = { name, card, bars, values: null, dirty: false, fields: {}, alarms: new Set(), alarmBox };
      for (const key of ["momentary", "shortterm", "integrated", "range", "max_momentary", "max_shortterm"]) {
        g.fields[key] = figure(row, "loudness/" + key, base + key);
      }
      programmesBox.append(card);
      programmes.set(name, g);
      return g;
    }

    function pair(name) {
      let q = pairs.get(name);
      if (q) return q;
      const card = make("article", "pair");
      card.append(make("h2", null, name));
      const bar = canvasIn(card, "correlation");
      const row = make("div", "figures");
      card.append(row);
      q = { name, card, bar, value: null, dirty: false };
      q.text = figure(row, "correlation", prefix + "/" + sanitized(name) + "/correlation");
      pairsBox.append(card);
      pairs.set(name, q);
      return q;
    }

    function onTick(tick) {
      const now = performance.now();
      // jacktap's time starts again from 0 when its analysis does (a server restart, a new rate, more inputs):
      // what the page keeps per port starts again too.
      if (lastTickTime !== null && tick.t < lastTickTime) {
        for (const p of ports.values()) {
          p.times = []; p.peaks = []; p.columns = null; p.holdDB = -Infinity; p.holdAt = 0;
        }
      }
      lastTickTime = tick.t; lastTickArrival = now;
      ticksSeen += 1;
      document.body.dataset.ticks = String(ticksSeen);
      // A port missing from the tick is no longer analysed (jacktap started again with other inputs): dimmed.
      for (const p of ports.values()) p.card.classList.toggle("gone", !(p.name in tick));
      for (const [key, value] of Object.entries(tick)) {
        if (key === "t" || value === null || typeof value !== "object") continue;
        if ("peak" in value) {
          const p = port(key);
          p.reading = value; p.dirty = true;
          p.times.push(tick.t); p.peaks.push(value.peak);
          let old = 0;
          while (old < p.times.length && p.times[old] < tick.t - HISTORY_SECONDS) old++;
          if (old > 256) { p.times.splice(0, old); p.peaks.splice(0, old); }
          // Peak hold: jacktap's own hold meter when it is broadcast, else the same ballistics here.
          if (typeof value.hold === "number") { p.holdDB = value.hold; }
          else {
            const fallen = p.holdDB - Math.max(0, tick.t - p.holdAt - HOLD_SECONDS) * FALL_DB_PER_SECOND;
            if (value.peak >= fallen) { p.holdDB = value.peak; p.holdAt = tick.t; } else if (tick.t - p.holdAt > HOLD_SECONDS) {
              p.holdDB = fallen; p.holdAt = tick.t - HOLD_SECONDS;
            }
          }
        } else if ("loudness" in value) {
          const g = programme(key); g.values = value.loudness; g.dirty = true;
        } else if ("correlation" in value) {
          const q = pair(key); q.value = value.correlation; q.dirty = true;
        }
      }
      scheduleDraw();
    }

    function onEvent(event) {
      if (event.event === "alarm") {
        const g = programme(event.programme);
        if (event.on) g.alarms.add(event.kind); else g.alarms.delete(event.kind);
        setText(g.alarmBox, [...g.alarms].sort().join(" "));
        g.card.classList.toggle("alarm", g.alarms.size > 0);
        return;
      }
      const p = ports.get(event.port) || port(event.port);
      if (event.event === "beat") {
        setText(p.bar, String(event.bar));
        setText(p.beatInBar, String(event.beat_in_bar));
        setText(p.beatsPerBar, "/" + event.beats_per_bar);
        // A beat comes ahead of its instant (--beat-lead): flash on the instant.
        let wait = 0;
        if (lastTickTime !== null) {
          wait = (event.t - lastTickTime) * 1000 - (performance.now() - lastTickArrival);
        }
        flash(p.beat, event.beat_in_bar === 1 ? "down" : "on", Math.min(500, Math.max(0, wait)));
      } else if (event.event === "onset") {
        flash(p.onset, "on", 0);
      }
    }

    function flash(e, kind, wait) {
      setTimeout(() => {
        e.classList.remove("on", "down");
        void e.offsetWidth;   // restart the fade
        e.classList.add(kind);
      }, wait);
    }

    function onStatus(status) {
      setText(statusFields[0], String(status.state));
      setText(statusFields[1], String(status.xruns));
      setText(statusFields[2], String(status.overruns));
      document.body.classList.toggle("disconnected", status.state !== "running");
    }

    function dispatch(line) {
      let message;
      try { message = JSON.parse(line); } catch (e) { return; }
      if (message === null || typeof message !== "object") return;
      if ("event" in message) onEvent(message);
      else if (typeof message.t === "number") onTick(message);
      else if ("status" in message) onStatus(message.status);
    }

    function scheduleDraw() {
      if (drawPending) return;
      drawPending = true;
      // Hidden tabs get no animation frames: the timer keeps their figures current for scripts that read them
      // (and takes back the frame it asked for, so that a hidden tab does not pile them up).
      let frame = 0;
      const timer = setTimeout(() => { cancelAnimationFrame(frame); draw(); }, 250);
      frame = requestAnimationFrame(() => { clearTimeout(timer); draw(); });
    }

    const style = getComputedStyle(document.documentElement);
    const colour = name => style.getPropertyValue(name).trim() || "#888";

    function draw() {
      drawPending = false;
      for (const p of ports.values()) if (p.dirty) drawPort(p);
      for (const g of programmes.values()) if (g.dirty) drawProgramme(g);
      for (const q of pairs.values()) if (q.dirty) drawPair(q);
      if (detailPort && ports.get(detailPort)) drawSpectrum(detailCanvas, ports.get(detailPort).reading, true);
    }

    function drawPort(p) {
      p.dirty = false;
      const r = p.reading;
      setText(p.peak, dB(r.peak));
      setText(p.rms, dB(r.rms));
      setText(p.truepeak, dB(r.truepeak));
      setText(p.note, r.note ? String(r.note[0]) : "–");
      const cents = r.note ? Math.round(r.note[2]) : null;
      setText(p.cents, cents === null ? "–" : (cents > 0 ? "+" : "") + String(cents === 0 ? 0 : cents));
      setText(p.tempo, typeof r.tempo === "number" ? r.tempo.toFixed(1) : "–");
      p.card.classList.toggle("clip", r.peak >= -0.1);
      if (!p.visible) return;
      drawLevel(p);
      drawSpectrum(p.spectrum, r, false);
      drawHistory(p);
    }

    const dbX = (v, w) => unit((v - FLOOR) / -FLOOR) * w;

    function drawLevel(p) {
      const c = p.level; fit(c);
      const g = c.getContext("2d"), w = c.width, h = c.height, r = p.reading;
      g.fillStyle = colour("--meter-back"); g.fillRect(0, 0, w, h);
      const zones = [[FLOOR, -18, "--meter-low"], [-18, -6, "--meter-mid"], [-6, 0, "--meter-high"]];
      for (const [from, to, name] of zones) {          // the peak, dimmed, over each zone it reaches
        const x0 = dbX(from, w), x1 = dbX(Math.min(to, r.peak), w);
        if (x1 > x0) { g.globalAlpha = 0.45; g.fillStyle = colour(name); g.fillRect(x0, 0, x1 - x0, h); }
      }
      for (const [from, to, name] of zones) {          // the RMS, full, over the middle of the bar
        const x0 = dbX(from, w), x1 = dbX(Math.min(to, r.rms), w);
        if (x1 > x0) { g.globalAlpha = 1; g.fillStyle = colour(name); g.fillRect(x0, h * 0.25, x1 - x0, h * 0.5); }
      }
      g.globalAlpha = 1;
      const hold = dbX(p.holdDB, w);
      g.fillStyle = colour("--text"); g.fillRect(Math.max(0, hold - 2), 0, 2, h);
      g.fillStyle = colour("--grid");
      for (let mark = -54; mark < 0; mark += 6) g.fillRect(Math.round(dbX(mark, w)), 0, 1, h * 0.2);
    }

    function drawSpectrum(c, r, large) {
      fit(c);
      const g = c.getContext("2d"), w = c.width, h = c.height;
      g.fillStyle = colour("--meter-back"); g.fillRect(0, 0, w, h);
      if (!r || !r.bands || r.bands.length === 0) return;
      const n = r.bands.length, bw = w / n;
      g.fillStyle = colour("--spectrum");
      for (let i = 0; i < n; i++) {
        const v = unit(r.bands[i]) * h;
        g.fillRect(i * bw + (large ? 1 : 0), h - v, Math.max(1, bw - (large ? 2 : 0)), v);
      }
      if (large) {   // the contract's bands: log-spaced, 60 Hz to 18 kHz
        g.fillStyle = colour("--text"); g.font = Math.round(h / 24) + "px sans-serif";
        for (const [f, label] of [[100, "100"], [1000, "1k"], [10000, "10k"]]) {
          const x = Math.log(f / 60) / Math.log(300) * w;
          g.fillRect(x, 0, 1, h); g.fillText(label, x + 4, h / 20 + 4);
        }
      }
    }

    function drawHistory(p) {
      const c = p.history;
      const resized = fit(c) || p.columns === null;
      const w = c.width, h = c.height, g = c.getContext("2d");
      const secondsPerColumn = HISTORY_SECONDS / w;
      const newest = Math.floor(p.times[p.times.length - 1] / secondsPerColumn);
      const height = v => unit((v - FLOOR) / -FLOOR) * h;
      const column = k => {   // column k (of the whole run) at its place from the right edge
        const x = w - 1 - (newest - k), v = p.columns[k % w];
        g.fillStyle = colour("--meter-back"); g.fillRect(x, 0, 1, h);
        if (v > FLOOR) { g.fillStyle = colour("--history"); g.fillRect(x, h - height(v), 1, height(v)); }
      };
      let oldest;   // the oldest column to draw
      if (resized) {
        // Each column holds the highest peak of its 30 s / width slice.
        p.columns = new Float32Array(w).fill(-Infinity);
        p.incorporated = -Infinity;
        g.fillStyle = colour("--meter-back"); g.fillRect(0, 0, w, h);   // before the page opened: empty
        oldest = newest - w + 1;
      } else {
        const shift = Math.min(w, newest - p.drawnColumn);
        if (shift > 0) g.drawImage(c, -shift, 0);
        for (let k = newest - shift + 1; k <= newest; k++) p.columns[((k % w) + w) % w] = -Infinity;
        oldest = newest - shift;
      }
      // Every tick since the last drawing, not only the newest: several may arrive between two frames. A tick
      // stands for the time since the one before, so it fills every column of that stretch (columns narrower
      // than a tick, on a high-density screen or at a low --rate, would otherwise be left empty).
      for (let i = p.times.length - 1; i >= 0 && p.times[i] > p.incorporated; i--) {
        const k = Math.floor(p.times[i] / secondsPerColumn);
        if (newest - k >= w) break;
        const from = i > 0 ? Math.max(Math.floor(p.times[i - 1] / secondsPerColumn) + 1, newest - w + 1, k - w + 1) : k;
        for (let j = Math.min(from, k); j <= k; j++) p.columns[j % w] = Math.max(p.columns[j % w], p.peaks[i]);
        oldest = Math.min(oldest, Math.min(from, k));
      }
      p.incorporated = p.times[p.times.length - 1];
      for (let k = Math.max(oldest, newest - w + 1); k <= newest; k++) if (k >= 0) column(k);
      p.drawnColumn = newest;
    }

    function drawProgramme(g) {
      g.dirty = false;
      const v = g.values;
      for (const [key, e] of Object.entries(g.fields)) {
        const value = v[key];
        setText(e, dB(value));
        e.classList.toggle("over", key !== "range" && typeof value === "number" && value > target);
      }
      // Momentary and short-term on EBU Tech 3341's +9 scale: the target 18 LU above the bottom, 9 below the top.
      const c = g.bars; fit(c);
      const x = c.getContext("2d"), w = c.width, h = c.height;
      const at = lufs => unit((lufs - (target - 18)) / 27) * w;
      x.fillStyle = colour("--meter-back"); x.fillRect(0, 0, w, h);
      const rows = [["momentary", 0], ["shortterm", 1]];
      for (const [key, row] of rows) {
        const value = v[key];
        if (typeof value !== "number") continue;
        x.fillStyle = colour(value > target ? "--meter-high" : "--meter-low");
        x.fillRect(0, row * h / 2 + 1, at(value), h / 2 - 2);
      }
      x.fillStyle = colour("--text");
      x.fillRect(Math.round(at(target)), 0, 2, h);
    }

    function drawPair(q) {
      q.dirty = false;
      setText(q.text, typeof q.value === "number" ? q.value.toFixed(2) : "–");
      const c = q.bar; fit(c);
      const x = c.getContext("2d"), w = c.width, h = c.height;
      x.fillStyle = colour("--meter-back"); x.fillRect(0, 0, w, h);
      const mid = w / 2, end = (unit((q.value + 1) / 2)) * w;
      x.fillStyle = colour(q.value < 0 ? "--meter-high" : "--meter-low");
      x.fillRect(Math.min(mid, end), 0, Math.abs(end - mid), h);
      x.fillStyle = colour("--text"); x.fillRect(mid, 0, 1, h);
    }

    function openDetail(name) {
      detailPort = name;
      document.getElementById("detail-name").textContent = name;
      detail.hidden = false;
      scheduleDraw();
    }
    document.getElementById("detail-close").addEventListener("click", () => { detailPort = null; detail.hidden = true; });
    document.addEventListener("keydown", e => { if (e.key === "Escape") { detailPort = null; detail.hidden = true; } });
    window.addEventListener("resize", () => {
      for (const p of ports.values()) { p.columns = null; p.dirty = p.reading !== null; }
      for (const g of programmes.values()) g.dirty = g.values !== null;
      for (const q of pairs.values()) q.dirty = q.value !== null;
      scheduleDraw();
    });

    // The newest tick at once, then the stream; a lost stream is retried every second.
    fetch("/snapshot.json", { cache: "no-store" }).then(r => (r.ok ? r.text() : "")).then(text => {
      if (text && lastTickTime === null) dispatch(text);
    }).catch(() => {});
    function connect() {
      const socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
      socket.onopen = () => { setText(linkText, "live"); document.body.classList.remove("offline"); };
      socket.onmessage = m => dispatch(m.data);
      socket.onclose = () => {
        setText(linkText, "reconnecting");
        document.body.classList.add("offline");
        setTimeout(connect, 1000);
      };
    }
    connect();
    })();
    """#
}
