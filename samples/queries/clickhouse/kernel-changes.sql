-- SPDX-License-Identifier: GPL-2.0-or-later
-- What changed from one kernel series (major.minor) to another: each figure on the older and on the newer, for every pair in the fleet?
SELECT figure, a_series AS older, b_series AS newer,
       round(a_value, 3) AS older_value, round(b_value, 3) AS newer_value
FROM (SELECT v AS a_v, series AS a_series, figure, value AS a_value FROM (
    SELECT v, series, 'recordings' AS figure, count() * 1.0 AS value
    FROM (SELECT recording_id, toUInt32OrZero(extract(kernel, '^(\\d+)')) * 1000 + toUInt32OrZero(extract(kernel, '^\\d+\\.(\\d+)')) AS v, concat(extract(kernel, '^(\\d+)'), '.', toString(toUInt32OrZero(extract(kernel, '^\\d+\\.(\\d+)')))) AS series FROM recordings) GROUP BY v, series
    UNION ALL
    SELECT v, series, concat(kind, '_stall_mean_ms'), avg(duration_ns) / 1e6
    FROM stalls ANY INNER JOIN (SELECT recording_id, toUInt32OrZero(extract(kernel, '^(\\d+)')) * 1000 + toUInt32OrZero(extract(kernel, '^\\d+\\.(\\d+)')) AS v, concat(extract(kernel, '^(\\d+)'), '.', toString(toUInt32OrZero(extract(kernel, '^\\d+\\.(\\d+)')))) AS series FROM recordings) USING recording_id
    WHERE kind IN ('direct', 'memcg') GROUP BY v, series, kind
    UNION ALL
    SELECT v, series, concat(kind, '_stall_max_ms'), max(duration_ns) / 1e6
    FROM stalls ANY INNER JOIN (SELECT recording_id, toUInt32OrZero(extract(kernel, '^(\\d+)')) * 1000 + toUInt32OrZero(extract(kernel, '^\\d+\\.(\\d+)')) AS v, concat(extract(kernel, '^(\\d+)'), '.', toString(toUInt32OrZero(extract(kernel, '^\\d+\\.(\\d+)')))) AS series FROM recordings) USING recording_id
    WHERE kind IN ('direct', 'memcg') GROUP BY v, series, kind
    UNION ALL
    SELECT v, series, 'kswapd_no_handoff_pct',
           100.0 * sum(handoff = 'none') / sum(handoff IN ('none', 'wakeup', 'pickup'))
    FROM kswapd_episodes ANY INNER JOIN (SELECT recording_id, toUInt32OrZero(extract(kernel, '^(\\d+)')) * 1000 + toUInt32OrZero(extract(kernel, '^\\d+\\.(\\d+)')) AS v, concat(extract(kernel, '^(\\d+)'), '.', toString(toUInt32OrZero(extract(kernel, '^\\d+\\.(\\d+)')))) AS series FROM recordings) USING recording_id
    GROUP BY v, series HAVING sum(handoff IN ('none', 'wakeup', 'pickup')) > 0
    UNION ALL
    SELECT v, series, 'mthp_swpout_fallback_pct',
           assumeNotNull(100.0 * sum(swpout_fallback_folios) / (sum(swpout_folios) + sum(swpout_fallback_folios)))
    FROM swap_orders ANY INNER JOIN (SELECT recording_id, toUInt32OrZero(extract(kernel, '^(\\d+)')) * 1000 + toUInt32OrZero(extract(kernel, '^\\d+\\.(\\d+)')) AS v, concat(extract(kernel, '^(\\d+)'), '.', toString(toUInt32OrZero(extract(kernel, '^\\d+\\.(\\d+)')))) AS series FROM recordings) USING recording_id
    WHERE alloc_order > 0
    GROUP BY v, series HAVING sum(swpout_folios) + sum(swpout_fallback_folios) > 0
    UNION ALL
    SELECT v, series, 'oom_kills', count() * 1.0
    FROM oom_kills ANY INNER JOIN (SELECT recording_id, toUInt32OrZero(extract(kernel, '^(\\d+)')) * 1000 + toUInt32OrZero(extract(kernel, '^\\d+\\.(\\d+)')) AS v, concat(extract(kernel, '^(\\d+)'), '.', toString(toUInt32OrZero(extract(kernel, '^\\d+\\.(\\d+)')))) AS series FROM recordings) USING recording_id GROUP BY v, series))
ALL INNER JOIN
     (SELECT v AS b_v, series AS b_series, figure, value AS b_value FROM (
    SELECT v, series, 'recordings' AS figure, count() * 1.0 AS value
    FROM (SELECT recording_id, toUInt32OrZero(extract(kernel, '^(\\d+)')) * 1000 + toUInt32OrZero(extract(kernel, '^\\d+\\.(\\d+)')) AS v, concat(extract(kernel, '^(\\d+)'), '.', toString(toUInt32OrZero(extract(kernel, '^\\d+\\.(\\d+)')))) AS series FROM recordings) GROUP BY v, series
    UNION ALL
    SELECT v, series, concat(kind, '_stall_mean_ms'), avg(duration_ns) / 1e6
    FROM stalls ANY INNER JOIN (SELECT recording_id, toUInt32OrZero(extract(kernel, '^(\\d+)')) * 1000 + toUInt32OrZero(extract(kernel, '^\\d+\\.(\\d+)')) AS v, concat(extract(kernel, '^(\\d+)'), '.', toString(toUInt32OrZero(extract(kernel, '^\\d+\\.(\\d+)')))) AS series FROM recordings) USING recording_id
    WHERE kind IN ('direct', 'memcg') GROUP BY v, series, kind
    UNION ALL
    SELECT v, series, concat(kind, '_stall_max_ms'), max(duration_ns) / 1e6
    FROM stalls ANY INNER JOIN (SELECT recording_id, toUInt32OrZero(extract(kernel, '^(\\d+)')) * 1000 + toUInt32OrZero(extract(kernel, '^\\d+\\.(\\d+)')) AS v, concat(extract(kernel, '^(\\d+)'), '.', toString(toUInt32OrZero(extract(kernel, '^\\d+\\.(\\d+)')))) AS series FROM recordings) USING recording_id
    WHERE kind IN ('direct', 'memcg') GROUP BY v, series, kind
    UNION ALL
    SELECT v, series, 'kswapd_no_handoff_pct',
           100.0 * sum(handoff = 'none') / sum(handoff IN ('none', 'wakeup', 'pickup'))
    FROM kswapd_episodes ANY INNER JOIN (SELECT recording_id, toUInt32OrZero(extract(kernel, '^(\\d+)')) * 1000 + toUInt32OrZero(extract(kernel, '^\\d+\\.(\\d+)')) AS v, concat(extract(kernel, '^(\\d+)'), '.', toString(toUInt32OrZero(extract(kernel, '^\\d+\\.(\\d+)')))) AS series FROM recordings) USING recording_id
    GROUP BY v, series HAVING sum(handoff IN ('none', 'wakeup', 'pickup')) > 0
    UNION ALL
    SELECT v, series, 'mthp_swpout_fallback_pct',
           assumeNotNull(100.0 * sum(swpout_fallback_folios) / (sum(swpout_folios) + sum(swpout_fallback_folios)))
    FROM swap_orders ANY INNER JOIN (SELECT recording_id, toUInt32OrZero(extract(kernel, '^(\\d+)')) * 1000 + toUInt32OrZero(extract(kernel, '^\\d+\\.(\\d+)')) AS v, concat(extract(kernel, '^(\\d+)'), '.', toString(toUInt32OrZero(extract(kernel, '^\\d+\\.(\\d+)')))) AS series FROM recordings) USING recording_id
    WHERE alloc_order > 0
    GROUP BY v, series HAVING sum(swpout_folios) + sum(swpout_fallback_folios) > 0
    UNION ALL
    SELECT v, series, 'oom_kills', count() * 1.0
    FROM oom_kills ANY INNER JOIN (SELECT recording_id, toUInt32OrZero(extract(kernel, '^(\\d+)')) * 1000 + toUInt32OrZero(extract(kernel, '^\\d+\\.(\\d+)')) AS v, concat(extract(kernel, '^(\\d+)'), '.', toString(toUInt32OrZero(extract(kernel, '^\\d+\\.(\\d+)')))) AS series FROM recordings) USING recording_id GROUP BY v, series)) USING figure
WHERE b_v > a_v
ORDER BY figure, a_v, b_v;
