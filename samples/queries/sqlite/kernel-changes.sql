-- SPDX-License-Identifier: GPL-2.0-or-later
-- What changed from one kernel series (major.minor) to another: each figure on the older and on the newer, for every pair in the fleet?
WITH k AS (
  SELECT recording_id,
         CAST(kernel AS INTEGER) * 1000 + CAST(substr(kernel, instr(kernel, '.') + 1) AS INTEGER) AS v,
         CAST(kernel AS INTEGER) || '.' || CAST(substr(kernel, instr(kernel, '.') + 1) AS INTEGER) AS series
  FROM recordings),
f AS (
  SELECT v, series, 'recordings' AS figure, count(*) * 1.0 AS value
  FROM k GROUP BY v, series
  UNION ALL
  SELECT v, series, s.kind || '_stall_mean_ms', avg(s.duration_ns) / 1e6
  FROM stalls AS s JOIN k USING (recording_id)
  WHERE s.kind IN ('direct', 'memcg') GROUP BY v, series, s.kind
  UNION ALL
  SELECT v, series, s.kind || '_stall_max_ms', max(s.duration_ns) / 1e6
  FROM stalls AS s JOIN k USING (recording_id)
  WHERE s.kind IN ('direct', 'memcg') GROUP BY v, series, s.kind
  UNION ALL
  SELECT v, series, 'kswapd_no_handoff_pct',
         100.0 * sum(e.handoff = 'none') / sum(e.handoff IN ('none', 'wakeup', 'pickup'))
  FROM kswapd_episodes AS e JOIN k USING (recording_id)
  GROUP BY v, series HAVING sum(e.handoff IN ('none', 'wakeup', 'pickup')) > 0
  UNION ALL
  SELECT v, series, 'mthp_swpout_fallback_pct',
         100.0 * sum(o.swpout_fallback_folios) / (sum(o.swpout_folios) + sum(o.swpout_fallback_folios))
  FROM swap_orders AS o JOIN k USING (recording_id)
  WHERE o.alloc_order > 0
  GROUP BY v, series HAVING sum(o.swpout_folios) + sum(o.swpout_fallback_folios) > 0
  UNION ALL
  SELECT v, series, 'oom_kills', count(*) * 1.0
  FROM oom_kills JOIN k USING (recording_id) GROUP BY v, series)
SELECT a.figure, a.series AS older, b.series AS newer,
       round(a.value, 3) AS older_value, round(b.value, 3) AS newer_value
FROM f AS a JOIN f AS b ON b.figure = a.figure AND b.v > a.v
ORDER BY a.figure, a.v, b.v;
