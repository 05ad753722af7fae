/**
 * The in-page side of B3, injected before any page script (Playwright addInitScript), identical for
 * both arms:
 * - readiness: the first frame from which the canvas has nodes, none of them hidden (React Flow
 *   hides a node until it is measured) and node count + viewport transform stay the same for 10
 *   frames; `ready.at` is ms since navigation start;
 * - a requestAnimationFrame recorder (frame intervals) and long tasks (PerformanceObserver) per phase;
 * - input latency: each pointermove's timestamp to the end of the next frame's work (rAF, then a
 *   message-channel task);
 * - a React commit counter through the DevTools global hook: per commit, the components that
 *   rendered (PerformedWork) — only walking subtrees that were reconciled. Off until `count(true)`.
 */
export const PROBE_SCRIPT = String.raw`(() => {
  const state = { ready: null, phase: null, frames: [], longtasks: [], latencies: [], moves: 0, counting: false, commits: 0, renders: {} };
  window.__b3 = state;
  let key = '', since = 0, same = 0;
  const check = () => {
    const els = document.querySelectorAll('.react-flow__node');
    let ok = els.length > 0;
    if (ok) for (const el of els) if (el.style.visibility === 'hidden') { ok = false; break; }
    const vp = document.querySelector('.react-flow__viewport');
    const k = ok + ':' + els.length + ':' + (vp ? vp.style.transform : '');
    if (k !== key) { key = k; since = performance.now(); same = 0; } else same++;
    if (ok && same >= 10) { state.ready = { at: since, nodes: els.length, edges: document.querySelectorAll('.react-flow__edge').length }; return; }
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);

  try {
    new PerformanceObserver((list) => { for (const e of list.getEntries()) state.longtasks.push({ start: e.startTime, duration: e.duration }); })
      .observe({ type: 'longtask', buffered: true });
  } catch {}

  let recording = false;
  const frame = (t) => { if (!recording) return; state.frames.push(t); requestAnimationFrame(frame); };
  state.start = (phase) => { state.phase = { name: phase, t0: performance.now() }; state.frames = []; state.latencies = []; state.moves = 0; recording = true; requestAnimationFrame(frame); };
  state.stop = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => {
    recording = false;
    const t1 = performance.now();
    const f = state.frames;
    const intervals = f.slice(1).map((t, i) => t - f[i]);
    const lt = state.longtasks.filter((l) => l.start >= state.phase.t0 && l.start < t1);
    resolve({ phase: state.phase.name, ms: t1 - state.phase.t0, intervals, latencies: state.latencies.slice(), moves: state.moves,
      longtasks: lt.length, longtaskMs: lt.reduce((s, l) => s + l.duration, 0) });
  })));

  const pending = [];
  addEventListener('pointermove', (e) => {
    if (!recording) return;
    state.moves++;
    pending.push(e.timeStamp);
    if (pending.length > 1) return;
    requestAnimationFrame(() => {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => { const now = performance.now(); for (const t of pending.splice(0)) state.latencies.push(now - t); };
      ch.port2.postMessage(0);
    });
  }, { capture: true, passive: true });

  const COMPONENT_TAGS = new Set([0, 1, 11, 14, 15]);
  const ownName = (f) => { const t = f.type; return (t && typeof t !== 'string' && (t.displayName || t.name || (t.type && (t.type.displayName || t.type.name)) || (t.render && t.render.name))) || ''; };
  // An unnamed component is reported as "anonymous in <nearest named ancestor>".
  const nameOf = (f) => { const own = ownName(f); if (own) return own; for (let p = f.return; p; p = p.return) { const n = COMPONENT_TAGS.has(p.tag) && ownName(p); if (n) return 'anonymous in ' + n; } return 'anonymous'; };
  const walk = (root) => {
    const stack = [root];
    while (stack.length) {
      const f = stack.pop();
      if (COMPONENT_TAGS.has(f.tag) && (f.flags & 1)) { const n = nameOf(f); state.renders[n] = (state.renders[n] || 0) + 1; }
      if (f.child && (!f.alternate || f.child !== f.alternate.child)) for (let c = f.child; c; c = c.sibling) stack.push(c);
    }
  };
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true, isDisabled: false, renderers: new Map(),
    inject() { return 1; },
    onCommitFiberRoot(_id, root) { if (!state.counting) return; state.commits++; walk(root.current); },
    onCommitFiberUnmount() {}, onPostCommitFiberRoot() {}, onScheduleFiberRoot() {}, setStrictMode() {}, checkDCE() {},
  };
  state.count = (on) => { state.counting = on; if (on) { state.commits = 0; state.renders = {}; } return { commits: state.commits, renders: state.renders }; };
})();`;
