-- SPDX-License-Identifier: GPL-2.0-or-later
-- What changed from one kernel series (major.minor) to another: each figure on the older and on the newer, for every pair in the fleet?
-- each table summed per recording first (a join of a row per recording,
-- not per event), then per series; each figure's (version, series, value)
-- per series, paired with every other (arrayJoin of the list and of its
-- reverse: two calls of one expression would be one)
SELECT figure, a.2 AS older, b.2 AS newer, round(a.3, 3) AS older_value, round(b.3, 3) AS newer_value
FROM (SELECT figure, arrayJoin(k) AS a, arrayJoin(arrayReverse(k)) AS b
      FROM (SELECT figure, groupArray((v, series, value)) AS k FROM (
  SELECT v, series, 'recordings' AS figure, count() * 1.0 AS value
  FROM (SELECT recording_id, toUInt32OrZero(extract(kernel, '^(\\d+)')) * 1000 + toUInt32OrZero(extract(kernel, '^\\d+\\.(\\d+)')) AS v, concat(extract(kernel, '^(\\d+)'), '.', toString(toUInt32OrZero(extract(kernel, '^\\d+\\.(\\d+)')))) AS series FROM recordings) GROUP BY v, series
  UNION ALL
  SELECT v, series, f.1, f.2
  FROM (SELECT v, series, kind, sum(total) / sum(n) / 1e6 AS mean_ms, max(longest) / 1e6 AS max_ms
        FROM (SELECT recording_id, kind, sum(duration_ns) AS total, count() AS n, max(duration_ns) AS longest
              FROM stalls WHERE kind IN ('direct', 'memcg') GROUP BY recording_id, kind)
        ANY INNER JOIN (SELECT recording_id, toUInt32OrZero(extract(kernel, '^(\\d+)')) * 1000 + toUInt32OrZero(extract(kernel, '^\\d+\\.(\\d+)')) AS v, concat(extract(kernel, '^(\\d+)'), '.', toString(toUInt32OrZero(extract(kernel, '^\\d+\\.(\\d+)')))) AS series FROM recordings) USING recording_id
        GROUP BY v, series, kind)
  ARRAY JOIN [(concat(kind, '_stall_mean_ms'), mean_ms), (concat(kind, '_stall_max_ms'), max_ms)] AS f
  UNION ALL
  SELECT v, series, 'kswapd_no_handoff_pct', 100.0 * sum(no_handoff) / sum(needed)
  FROM (SELECT recording_id, sum(handoff = 'none') AS no_handoff,
               sum(handoff IN ('none', 'wakeup', 'pickup')) AS needed
        FROM kswapd_episodes GROUP BY recording_id)
  ANY INNER JOIN (SELECT recording_id, toUInt32OrZero(extract(kernel, '^(\\d+)')) * 1000 + toUInt32OrZero(extract(kernel, '^\\d+\\.(\\d+)')) AS v, concat(extract(kernel, '^(\\d+)'), '.', toString(toUInt32OrZero(extract(kernel, '^\\d+\\.(\\d+)')))) AS series FROM recordings) USING recording_id
  GROUP BY v, series HAVING sum(needed) > 0
  UNION ALL
  SELECT v, series, 'mthp_swpout_fallback_pct', assumeNotNull(100.0 * sum(fb) / (sum(so) + sum(fb)))
  FROM (SELECT recording_id, sum(swpout_folios) AS so, sum(swpout_fallback_folios) AS fb
        FROM swap_orders WHERE alloc_order > 0 GROUP BY recording_id)
  ANY INNER JOIN (SELECT recording_id, toUInt32OrZero(extract(kernel, '^(\\d+)')) * 1000 + toUInt32OrZero(extract(kernel, '^\\d+\\.(\\d+)')) AS v, concat(extract(kernel, '^(\\d+)'), '.', toString(toUInt32OrZero(extract(kernel, '^\\d+\\.(\\d+)')))) AS series FROM recordings) USING recording_id
  GROUP BY v, series HAVING sum(so) + sum(fb) > 0
  UNION ALL
  SELECT v, series, 'oom_kills', sum(kills) * 1.0
  FROM (SELECT recording_id, count() AS kills FROM oom_kills GROUP BY recording_id)
  ANY INNER JOIN (SELECT recording_id, toUInt32OrZero(extract(kernel, '^(\\d+)')) * 1000 + toUInt32OrZero(extract(kernel, '^\\d+\\.(\\d+)')) AS v, concat(extract(kernel, '^(\\d+)'), '.', toString(toUInt32OrZero(extract(kernel, '^\\d+\\.(\\d+)')))) AS series FROM recordings) USING recording_id GROUP BY v, series)
            GROUP BY figure))
WHERE b.1 > a.1
ORDER BY figure, a.1, b.1;
