import { options } from 'preact';

/**
 * The app runs on Preact's React compatibility layer (vite.config.ts). Preact runs effects (`useEffect`) one animation
 * frame and one timer after the paint; React runs them from a MessageChannel task right after it. Frames and timers
 * are what a background tab throttles and what a test's paused clock holds, so effects scheduled that way lag behind
 * React's (a debounced filter's write waited for the next frame). Effects here run as React runs them: one task after
 * the render, in order.
 */
const channel = new MessageChannel();
let queued: (() => void)[] = [];
channel.port1.onmessage = () => {
  const run = queued;
  queued = [];
  for (const callback of run) callback();
};
options.requestAnimationFrame = (callback) => {
  queued.push(callback);
  if (queued.length === 1) channel.port2.postMessage(null);
};
