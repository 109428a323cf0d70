-- SPDX-License-Identifier: GPL-2.0-or-later
-- Which hosts' kswapd ran for more than 10 s in all, asked for a high order, without handing off to kcompactd?
SELECT r.host AS host, count() AS episodes,
       round(sum(e.duration_ns) / 1e9, 3) AS awake_s,
       round(max(e.duration_ns) / 1e9, 3) AS longest_s
FROM kswapd_episodes AS e ANY INNER JOIN recordings AS r USING recording_id
WHERE e.handoff = 'none'
GROUP BY r.host
HAVING sum(e.duration_ns) > 10e9
ORDER BY awake_s DESC, host;
