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
 *   rendered (PerformedWork) — only walking subtrees that were reconciled. Off until `count(true)`;
 * - time to interactive: the first frame in which every node of the page's graph (`__B3__.nodes`) is
 *   rendered and none hidden (`rendered`); the probe then hands a grab point on a node in view to the
 *   harness (binding `__b3Grab`), which presses and moves the real mouse there at once, and `tti` is
 *   the first frame after that node's own transform changed: the first drag answered.
 */
export const PROBE_SCRIPT = String.raw`(() => {
  const state = { ready: null, rendered: null, grab: null, pressed: null, missed: 0, tti: null, phase: null, frames: [], longtasks: [], latencies: [], moves: 0, counting: false, commits: 0, renders: {} };
  window.__b3 = state;
  let key = '', since = 0, same = 0;
  const expected = () => { const g = window.__B3__; return g && g.nodes ? g.nodes.length : 0; };
  const check = () => {
    const els = document.querySelectorAll('.react-flow__node');
    let ok = els.length > 0;
    if (ok) for (const el of els) if (el.style.visibility === 'hidden') { ok = false; break; }
    // Every node rendered (or, where the canvas culls, the stable view below counts as rendered).
    if (ok && !state.rendered && els.length >= expected()) firstDrag(els);
    const vp = document.querySelector('.react-flow__viewport');
    const k = ok + ':' + els.length + ':' + (vp ? vp.style.transform : '');
    if (k !== key) { key = k; since = performance.now(); same = 0; } else same++;
    if (ok && same >= 10) {
      state.ready = { at: since, nodes: els.length, edges: document.querySelectorAll('.react-flow__edge').length };
      if (!state.rendered) firstDrag(els);
      return;
    }
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);

  // A node in view whose header a press would reach (not covered by a panel, the minimap or controls).
  const grabPoint = (els) => {
    const pane = document.querySelector('.react-flow__pane');
    if (!pane) return null;
    const p = pane.getBoundingClientRect();
    const cx = p.left + p.width / 2, cy = p.top + p.height / 2;
    const spots = [];
    for (const el of els) {
      const id = el.dataset.id;
      if (id === 'start' || id === 'end') continue;
      const r = el.getBoundingClientRect();
      const x = r.left + r.width / 2, y = r.top + Math.min(10, r.height / 2);
      if (x > p.left + 10 && x < p.right - 10 && y > p.top + 10 && y < p.bottom - 10) spots.push({ x, y, id, d: Math.hypot(x - cx, y - cy) });
    }
    spots.sort((a, b) => a.d - b.d);
    for (const s of spots) {
      const hit = document.elementFromPoint(s.x, s.y);
      const node = hit && hit.closest('.react-flow__node');
      if (node && node.dataset.id === s.id && !hit.closest('.react-flow__handle')) return { x: s.x, y: s.y, id: s.id };
    }
    return null;
  };
  state.regrab = () => grabPoint(document.querySelectorAll('.react-flow__node'));
  const firstDrag = (els) => {
    const grab = grabPoint(els);
    if (!grab) return;
    state.rendered = { at: performance.now(), nodes: els.length };
    state.grab = grab;
    if (typeof window.__b3Grab === 'function') window.__b3Grab(grab);
  };
  // The node the first press lands on (the view may have moved since the grab point was taken: then
  // the press misses, and the harness presses again at a fresh point).
  addEventListener('pointerdown', (e) => {
    if (!state.rendered || state.tti || state.pressed) return;
    const el = e.target instanceof Element ? e.target.closest('.react-flow__node') : null;
    if (!el) { state.missed++; return; }
    state.pressed = { at: e.timeStamp, id: el.dataset.id };
    const before = el.style.transform;
    const mo = new MutationObserver(() => {
      if (el.style.transform === before || state.tti) return;
      mo.disconnect();
      requestAnimationFrame(() => { state.tti = { at: performance.now(), id: el.dataset.id }; });
    });
    mo.observe(el, { attributes: true, attributeFilter: ['style'] });
  }, { capture: true });

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
