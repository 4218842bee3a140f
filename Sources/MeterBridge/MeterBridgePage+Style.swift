extension MeterBridgePage {
    /// The page's style: dark (a front-of-house desk at night), one column of cards on a phone and as many as
    /// fit on a wide screen; canvases have fixed heights, so a tick never changes the layout.
    static let style = #"""
    :root {
      --back: #111417; --card: #1b2026; --text: #e8ecef; --dim: #8a949e; --grid: #3a434c;
      --meter-back: #0b0d0f; --meter-low: #2fbf71; --meter-mid: #e0c341; --meter-high: #e5484d;
      --spectrum: #4aa3df; --history: #5d8fb8; --over: #ff6b6b; --beat: #ffd166; --downbeat: #ff7b00;
      color-scheme: dark;
    }
    * { box-sizing: border-box; }
    body { margin: 0; background: var(--back); color: var(--text); font: 14px/1.3 system-ui, sans-serif; }
    body.offline #link, body.disconnected #status b:first-child { color: var(--over); }
    #top { display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 16px; padding: 8px 12px;
           position: sticky; top: 0; background: var(--back); z-index: 1; border-bottom: 1px solid var(--grid); }
    #top h1 { font-size: 16px; margin: 0; }
    #status { margin: 0; color: var(--dim); }
    #status b { color: var(--text); font-variant-numeric: tabular-nums; }
    #target-label { color: var(--dim); margin-left: auto; }
    select, button { background: var(--card); color: var(--text); border: 1px solid var(--grid); border-radius: 4px;
                     font: inherit; padding: 2px 6px; }
    #programmes, #pairs, #ports { display: grid; gap: 8px; padding: 8px 12px 0;
                                  grid-template-columns: repeat(auto-fill, minmax(240px, 1fr)); }
    #ports { padding-bottom: 12px; }
    article { background: var(--card); border-radius: 6px; padding: 8px; min-width: 0; }
    article h2 { font-size: 14px; margin: 0 0 6px; display: flex; align-items: center; gap: 6px; }
    .port { cursor: pointer; }
    .port:focus { outline: 2px solid var(--spectrum); }
    .port.clip { box-shadow: inset 0 0 0 2px var(--meter-high); }
    .programme.alarm { box-shadow: inset 0 0 0 2px var(--over); }
    .alarms { color: var(--over); margin-left: 8px; font-size: 0.8em; text-transform: uppercase; }
    .port.gone { opacity: 0.35; }
    .name { flex: 1; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
    .beat, .onset { width: 12px; height: 12px; border-radius: 50%; background: var(--grid); }
    .onset { width: 8px; height: 8px; }
    .beat.on { animation: flash 180ms ease-out; --flash: var(--beat); }
    .beat.down { animation: flash 260ms ease-out; --flash: var(--downbeat); }
    .onset.on { animation: flash 120ms ease-out; --flash: var(--spectrum); }
    @keyframes flash { from { background: var(--flash); transform: scale(1.4); } to { background: var(--grid); } }
    canvas { display: block; width: 100%; border-radius: 3px; }
    canvas.level { height: 16px; }
    canvas.spectrum { height: 40px; margin-top: 6px; }
    canvas.history { height: 28px; margin-top: 4px; }
    canvas.loudness { height: 20px; }
    canvas.correlation { height: 10px; }
    .figures { display: flex; flex-wrap: wrap; gap: 2px 12px; margin-top: 4px; }
    .figure { display: inline-flex; align-items: baseline; gap: 4px; }
    .figure small { color: var(--dim); }
    .figure.tight { gap: 0; }
    .figure.tight small { margin-right: 4px; }
    .value { font-variant-numeric: tabular-nums; min-width: 3ch; }
    .value.over { color: var(--over); }
    .value.bare { min-width: 0; }
    .per-bar { color: var(--dim); }
    #detail { position: fixed; inset: 5vh 4vw; background: var(--card); border: 1px solid var(--grid);
              border-radius: 8px; padding: 12px; display: flex; flex-direction: column; z-index: 2; }
    #detail[hidden] { display: none; }
    #detail-head { display: flex; align-items: center; justify-content: space-between; }
    #detail-head h2 { margin: 0; font-size: 16px; }
    #detail-spectrum { flex: 1; height: auto; min-height: 0; margin-top: 8px; }
    @media (max-width: 520px) {
      #programmes, #pairs, #ports { grid-template-columns: 1fr; padding: 6px 6px 0; }
      #target-label { margin-left: 0; }
    }
    """#
}
