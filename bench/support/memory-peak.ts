const MB = 1024 * 1024;

/** Bytes the process really holds: heap in use plus array buffers. */
export function liveBytes(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/**
 * Samples RSS and live bytes every 10 ms from now on; `stop()` ends the sampling (it may be called
 * again) and answers the peak growth over the start, in MB.
 */
export function memoryPeak() {
  const base = process.memoryUsage().rss;
  const baseLive = liveBytes();
  let peak = base;
  let peakLive = baseLive;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
    peakLive = Math.max(peakLive, liveBytes());
  }, 10);
  return {
    baseLive,
    stop() {
      clearInterval(timer);
      return {
        peakRssGrowthMB: +((peak - base) / MB).toFixed(1),
        peakHeapGrowthMB: +((peakLive - baseLive) / MB).toFixed(1),
      };
    },
  };
}
